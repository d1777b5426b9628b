// The errors of parsing an expression: a syntax error at an offset, and a binding error (an
// unknown function, a wrong number of arguments, a limit) that rules out a data name.

/** A syntax error at an offset; the parser turns it into a TemplateError. */
export class SyntaxErr extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
  }
}

/** A compile error that rules out the source being a data name: it names something that does
 *  not exist (an unknown function, a wrong number of arguments, an unknown static member) or
 *  breaks a limit. Always reported at compile time. */
export class BindErr extends SyntaxErr {}
