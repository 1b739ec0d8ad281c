import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

/** Absolute path of a file in the repository. */
export const repoPath = (relative: string): string => fileURLToPath(new URL(`../../../../${relative}`, import.meta.url));

export const readRepoFile = (relative: string): string => readFileSync(repoPath(relative), 'utf8');

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[];
  working_dir?: string;
  environment?: Record<string, string | number>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  networks?: string[] | Record<string, { ipv4_address?: string } | null>;
  init?: boolean;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  networks: Record<string, { ipam?: { config: { subnet: string; gateway?: string }[] } }>;
  volumes: Record<string, unknown>;
}

/** docker-compose.yml as Compose reads it (YAML merge keys on), failing on any YAML error or warning. */
export function readCompose(): ComposeFile {
  const doc = parseDocument(readRepoFile('docker-compose.yml'), { merge: true, prettyErrors: true });
  if (doc.errors.length || doc.warnings.length) throw new Error([...doc.errors, ...doc.warnings].map((e) => e.message).join('\n'));
  return doc.toJS() as ComposeFile;
}

/**
 * Compose's variable interpolation: `${VAR}`, `${VAR:-default}`, `${VAR:?message}` and `$$`.
 * Throws like `docker compose` does when a `:?` variable is missing.
 */
export function interpolate(value: string | number, env: Record<string, string>): string {
  return String(value).replace(
    /\$\$|\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g,
    (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
      if (whole === '$$') return '$';
      const set = env[name!];
      if (set !== undefined && set !== '') return set;
      if (op === ':?') throw new Error(`${name}: ${arg}`);
      return op === ':-' ? arg! : '';
    },
  );
}
