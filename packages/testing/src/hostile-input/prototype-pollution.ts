import { inspect } from 'node:util';

/** Keys whose value must never reach Object.prototype. */
export const POLLUTION_KEYS = ['polluted', 'isAdmin', 'entrNo', 'workGrpCd'] as const;

const PROTOTYPES: [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];

export type PrototypeSnapshot = Map<string, Map<PropertyKey, unknown>>;

/** The own properties (and their values or accessors) of the built-in prototypes a parser could reach. */
export function prototypeSnapshot(): PrototypeSnapshot {
  return new Map(
    PROTOTYPES.map(([name, proto]) => [
      name,
      new Map(
        Reflect.ownKeys(proto).map((k) => {
          // Accessors are compared by identity, never called.
          const d = Object.getOwnPropertyDescriptor(proto, k) as { get?: unknown; set?: unknown; value?: unknown };
          return [k, d.get ?? d.set ?? d.value];
        }),
      ),
    ]),
  );
}

/** What changed on the built-in prototypes since the snapshot (empty: nothing). */
export function prototypeChanges(before: PrototypeSnapshot): string[] {
  const now = prototypeSnapshot();
  const changes: string[] = [];
  for (const [name, props] of now) {
    const old = before.get(name)!;
    for (const [k, v] of props)
      if (!old.has(k) || old.get(k) !== v) changes.push(`${name}.${String(k)} ${old.has(k) ? 'replaced' : 'added'}`);
    for (const k of old.keys()) if (!props.has(k)) changes.push(`${name}.${String(k)} removed`);
  }
  const probe = {} as Record<string, unknown>;
  for (const k of POLLUTION_KEYS) if (probe[k] !== undefined) changes.push(`({}).${k} is ${inspect(probe[k])}`);
  return changes;
}
