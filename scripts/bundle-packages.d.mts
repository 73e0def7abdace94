// Types of scripts/bundle-packages.mjs, for vite.config.ts and the unit tests.
export const BUNDLE_PACKAGES_FILE: string
export type Weights = Record<string, number>
export interface PackageBytes {
  name: string
  gzip: number
}
export function packageOf(id: string, root: string): string
export function isNpmPackage(name: string): boolean
export function packageWeights(modules: Record<string, { code: string | null }>, root: string): Weights
export function shareOut(total: number, weights: Weights): Record<string, number>
export function firstLoadPackages(parts: { file: string; gzip: number }[], chunks: Record<string, Weights>): PackageBytes[]
export function readmeReasons(readme: string): Map<string, string>
export function readmeProblems(packages: PackageBytes[], readme: string): string[]
export function readmeTable(packages: PackageBytes[], readme: string): string
export function withReadmeTable(readme: string, table: string): string
