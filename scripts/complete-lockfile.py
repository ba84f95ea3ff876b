#!/usr/bin/env python3
"""Adds lock entries for platform-specific optional packages the lock file lacks.

The registry this workplace reaches lacks other platforms' builds of some tools (biome, buf), so
`npm install` cannot record them, and `npm ci` then refuses the lock ("Missing: ... from lock
file"). Each missing optional package gets an entry with its os/cpu/libc from its name, so npm ci
skips it on a platform it does not fit, as it would with a lock made against the full registry.
Run after any `npm install` that rewrites package-lock.json: `python3 scripts/complete-lockfile.py`.
"""
import json
import re
import sys

OS = {'android': 'android', 'darwin': 'darwin', 'linux': 'linux', 'win32': 'win32', 'freebsd': 'freebsd'}
CPU = {'arm64': 'arm64', 'aarch64': 'arm64', 'x64': 'x64', 'armv7': 'arm', 'arm': 'arm', 'ia32': 'ia32'}


def platform_of(name):
    base = name.split('/')[-1]
    parts = re.split(r'[-_]', base)
    os_ = next((OS[p] for p in parts if p in OS), None)
    cpu = next((CPU[p] for p in parts if p in CPU), None)
    libc = 'musl' if 'musl' in parts else None
    return os_, cpu, libc


path = sys.argv[1] if len(sys.argv) > 1 else 'package-lock.json'
lock = json.load(open(path))
packages = lock['packages']
added = []
for key, entry in list(packages.items()):
    for name, version in (entry.get('optionalDependencies') or {}).items():
        if f'node_modules/{name}' in packages:
            continue
        os_, cpu, libc = platform_of(name)
        if not (os_ and cpu):
            continue
        new = {'version': version, 'optional': True, 'os': [os_], 'cpu': [cpu]}
        if entry.get('dev'):
            new = {'version': version, 'dev': True, 'optional': True, 'os': [os_], 'cpu': [cpu]}
        if libc:
            new['libc'] = [libc]
        packages[f'node_modules/{name}'] = new
        added.append(name)
lock['packages'] = dict(sorted(packages.items(), key=lambda kv: (kv[0] != '', kv[0])))
with open(path, 'w') as f:
    json.dump(lock, f, indent=2)
    f.write('\n')
print(f'added {len(added)} lock entries: {", ".join(added) or "none"}')
