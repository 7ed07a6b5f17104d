/**
 * The third-party GitHub Actions Parley's workflows use (the one `parley init --github` writes, and
 * this repository's release workflow), pinned to the commit of a release: a tag can be moved, a
 * commit cannot. The version is written beside each pin as a comment, as Dependabot and Renovate
 * read and update it. Bump a pin by reading the release tag's commit in the action's repository.
 */
export const PINNED_ACTIONS = {
  checkout: { uses: 'actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1', version: 'v7.0.1' },
  setupNode: { uses: 'actions/setup-node@820762786026740c76f36085b0efc47a31fe5020', version: 'v7.0.0' },
  cache: { uses: 'actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae', version: 'v5.0.5' },
  uploadArtifact: { uses: 'actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f', version: 'v7.0.0' },
} as const;

/** `uses: <action>@<sha> # <version>`, as a workflow step writes it. */
export function pinnedUses(action: keyof typeof PINNED_ACTIONS): string {
  const { uses, version } = PINNED_ACTIONS[action];
  return `uses: ${uses} # ${version}`;
}
