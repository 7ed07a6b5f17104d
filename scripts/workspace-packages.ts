import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

/** What the tests and the Vitest config read of a workspace package's package.json. */
export interface WorkspaceManifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  nx?: { tags?: string[] };
}

export interface WorkspacePackage {
  /** Relative to the root, with forward slashes: `libs/core`. */
  folder: string;
  manifest: WorkspaceManifest;
}

/** Every workspace package named by the root package.json's "workspaces" (`libs/*`, …), in folder order. */
export function workspacePackages(root: string = repositoryRoot): WorkspacePackage[] {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
  return workspaces
    .flatMap((pattern) => {
      const parent = pattern.replace(/\/\*$/, '');
      return readdirSync(join(root, parent))
        .sort()
        .map((name) => `${parent}/${name}`);
    })
    .filter((folder) => existsSync(join(root, folder, 'package.json')))
    .map((folder) => ({ folder, manifest: JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')) as WorkspaceManifest }));
}
