// Progress bars for long CLI work (imports, builds, exports): drawn on stderr only when it is a
// terminal, so pipes and CI logs stay clean.
import cliProgress from 'cli-progress';

/** A progress sink: set the total, advance, finish. A no-op when stderr is not a terminal. */
export interface Progress {
  start(total: number, label?: string): void;
  update(value: number): void;
  increment(delta?: number): void;
  stop(): void;
}

// biome-ignore lint/suspicious/noEmptyBlockStatements: progress that shows nothing is empty by definition
const silent: Progress = { start() {}, update() {}, increment() {}, stop() {} };

/** A progress bar on stderr when it is a TTY (or when forced), else a silent sink. */
export function createProgress(options: { force?: boolean; unit?: string } = {}): Progress {
  if (!options.force && !process.stderr.isTTY) return silent;
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `{label} [{bar}] {percentage}% | {value}/{total} ${options.unit ?? ''} | {eta_formatted}`,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  return {
    start: (total, label = '') => bar.start(total, 0, { label }),
    update: (value) => bar.update(value),
    increment: (delta = 1) => bar.increment(delta),
    stop: () => bar.stop(),
  };
}

/** A progress sink that draws nothing, for library callers and tests. */
export const noProgress: Progress = silent;
