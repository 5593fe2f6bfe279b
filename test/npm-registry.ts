// A real npm registry on 127.0.0.1 serving this checkout's runtime dependencies, so that
// installing the packed tarball resolves them with nothing from the network and nothing
// from npm's own cache (`npm ci` fills that cache with tarballs only, not with the package
// documents a range such as `diff@^8.0.4` is resolved from, so a new machine has none).
// Each package is the lock file's non-dev entry: its package.json as installed by `npm ci`,
// and a tarball packed from its folder under node_modules/ with GNU tar.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface Registry {
  url: string;
  /** Package names asked for, in order (the packages npm resolved here). */
  asked: string[];
  close: () => Promise<void>;
}

interface Version {
  manifest: Record<string, unknown>;
  tarball: Buffer;
}

/** Every runtime package the lock file of `root` names, packed from its node_modules/. */
function runtimePackages(root: string): Map<string, Map<string, Version>> {
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; dev?: boolean; devOptional?: boolean; link?: boolean }>;
  };
  const byName = new Map<string, Map<string, Version>>();
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where.startsWith('node_modules/') || entry.dev || entry.devOptional || entry.link) continue;
    const dir = path.join(root, where);
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    const tarball = execFileSync('tar', [
      '-czf',
      '-',
      '--exclude=./node_modules',
      '--transform',
      's,^\\.,package,',
      '-C',
      dir,
      '.',
    ]);
    const name = manifest.name as string;
    if (!byName.has(name)) byName.set(name, new Map());
    byName.get(name)!.set(manifest.version as string, { manifest, tarball });
  }
  return byName;
}

export async function startRegistry(root: string): Promise<Registry> {
  const packages = runtimePackages(root);
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const tarball = /^\/(.+)\/-\/[^/]+-(\d[^/]*)\.tgz$/.exec(url.pathname);
    if (tarball) {
      const version = packages.get(decodeURIComponent(tarball[1]!))?.get(tarball[2]!);
      if (!version) return res.writeHead(404).end();
      return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(version.tarball);
    }
    const name = decodeURIComponent(url.pathname.slice(1));
    asked.push(name);
    const versions = packages.get(name);
    if (!versions) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${name}/-/${name.split('/').pop()}`;
    const document = {
      name,
      'dist-tags': { latest: [...versions.keys()].at(-1) },
      versions: Object.fromEntries(
        [...versions].map(([v, { manifest, tarball }]) => [
          v,
          {
            ...manifest,
            dist: {
              tarball: `${base}-${v}.tgz`,
              integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
            },
          },
        ]),
      ),
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    asked,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
