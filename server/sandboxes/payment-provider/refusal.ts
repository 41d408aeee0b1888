/** A refusal the sandbox payment provider answers as `{ error: { code, message } }` with its status. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
