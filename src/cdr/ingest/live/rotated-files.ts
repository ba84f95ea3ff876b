// The rotated copies of a followed file that can still be read: siblings in the same directory
// whose name begins with the file's name (Master.csv.1, Master.csv-20261124), not compressed.
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** What the follower needs to know of a file on disk. */
export interface FileInfo {
  path: string;
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

const COMPRESSED = /\.(?:gz|bz2|xz|zst|lz4|z|zip)$/i;

/** The readable rotated siblings of `path`, oldest modification first. */
export async function rotatedSiblings(path: string): Promise<FileInfo[]> {
  const dir = dirname(path);
  const base = basename(path);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const found: FileInfo[] = [];
  for (const name of names) {
    if (name === base || !name.startsWith(base) || COMPRESSED.test(name)) continue;
    const full = join(dir, name);
    try {
      const st = await stat(full);
      if (st.isFile())
        found.push({ path: full, dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs });
    } catch {
      // gone since readdir
    }
  }
  return found.sort((a, b) => a.mtimeMs - b.mtimeMs);
}

/** stat() of `path`, or null when it does not exist. */
export async function statOrNull(path: string): Promise<FileInfo | null> {
  try {
    const st = await stat(path);
    return { path, dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
