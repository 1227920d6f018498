// negotiator ships no types and @types/negotiator is not a dependency: the part of its API /graphql uses
// (github.com/jshttp/negotiator#accept-negotiation), the one Apollo Server chooses its answer types with.
declare module 'negotiator' {
  class Negotiator {
    constructor(request: { headers: { accept?: string | undefined } });
    /** The most preferred of `available` by the Accept header's weights, undefined when none is acceptable. */
    mediaType(available: string[]): string | undefined;
  }
  export default Negotiator;
}
