/** The oldest Node.js major the platform runs on (24 is the tested default). */
export const MIN_NODE_MAJOR = 22;

/** Why this Node.js cannot run the platform (`process.version`, e.g. `v20.20.2`), or undefined. */
export function runtimeProblem(version: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (Number.isInteger(major) && major >= MIN_NODE_MAJOR) return undefined;
  return `needs Node.js ${MIN_NODE_MAJOR} or later (24 is tested); this is ${version}`;
}
