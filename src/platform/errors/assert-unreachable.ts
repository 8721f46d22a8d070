/** The `default` of a switch that covers every member of a union: a member left out does not compile. */
export function assertUnreachable(value: never): never {
  throw new Error(`Unexpected value: ${String(value)}`);
}
