// The base of every area's error class: a stable machine-readable code plus a message for a person.
// Areas subclass it with their own code union (CdrError, GeoError, PduError, ...); the server maps
// codes to HTTP statuses in one place (src/server/error-catalogue.ts).

/** An expected failure with a stable code; never carries secrets in its message. */
export class AppError<Code extends string = string> extends Error {
  readonly code: Code;

  constructor(code: Code, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}
