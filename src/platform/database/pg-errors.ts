/** PostgreSQL's unique_violation (23505), optionally on one named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const driverError =
    (error as { driverError?: { code?: string; constraint?: string } }).driverError ?? error;
  const { code, constraint: violated } = driverError as { code?: string; constraint?: string };
  return code === '23505' && (constraint === undefined || violated === constraint);
}
