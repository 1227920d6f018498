import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { applyAmendments, type ContractAmendment } from './contract-amendments.js';
import { type OpenApiDocument, toJsonSchemaDialect } from './openapi-schema.js';

// ajv-formats is CommonJS: under NodeNext its default export arrives as the module object.
const addFormats = addFormatsPlugin as unknown as typeof addFormatsPlugin.default;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** One operation of a contract, found from a request's method and path. */
export interface ContractOperation {
  method: string;
  /** The path as the contract writes it, e.g. `/v1/castsByFid` or `/coins/{id}/market_chart`. */
  path: string;
  /** Path parameters taken from the request path (percent-decoded). */
  pathParams: Record<string, string>;
  /** JSON pointer of the operation object in the document. */
  pointer: string;
}

/** How a reply compared with what the contract documents for its status. */
export interface ReplyCheck {
  /** The contract names this status (or a range or default covering it). */
  documented: boolean;
  /** The contract gives a JSON schema for that reply (some statuses are documented without a body). */
  hasSchema: boolean;
  /** Where the body breaks the schema; empty when it matches. */
  errors: string[];
}

/** The request as it left the client. */
export interface SentRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
}

/** What the request must carry besides the contract's own description. */
export interface RequestExpectations {
  /** The URL path before the contract's paths: the configured base URL's path and any fixed prefix. */
  basePath: string;
  /** The configured key; checked against the contract's security schemes (or `credentialPathParam`). */
  credential?: string | undefined;
  /** The path parameter the key travels in, for vendors that put it in the URL path (Alchemy's `{apiKey}`). */
  credentialPathParam?: string | undefined;
  /** Origin the live API is served from: an operation with its own `servers` must name it. */
  origin?: string | undefined;
}

interface ParameterObject {
  name: string;
  in: string;
  required?: boolean;
  style?: string;
  explode?: boolean;
  pointer: string;
  schema: Json;
}

function describeError(e: ErrorObject): string {
  const where = e.instancePath === '' ? '(root)' : e.instancePath;
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${String(e.params.additionalProperty)})`
      : e.keyword === 'enum'
        ? ` (${JSON.stringify(e.params.allowedValues)})`
        : '';
  return `${where} ${e.message ?? e.keyword}${extra}`;
}

/**
 * A vendor's published OpenAPI contract, checked with Ajv: replies against the response schema of their operation and
 * status, requests against the operation's path, parameters and security scheme. `$ref`s are resolved by Ajv inside
 * the one document; OpenAPI 3.0 `nullable` is read as JSON Schema's null type; `amendments` say where the vendor's
 * server is known to send something else than its contract (each with its evidence).
 * @example
 * const hub = new VendorContract('farcaster-hub', parse(readFileSync('farcaster-hub.yaml', 'utf8')))
 * hub.checkReply(hub.findOperation('GET', '/v1/castsByFid')!, 200, body).errors // []
 */
export class VendorContract {
  readonly document: OpenApiDocument;
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(
    readonly name: string,
    document: OpenApiDocument,
    readonly amendments: readonly ContractAmendment[] = [],
  ) {
    this.document = applyAmendments(toJsonSchemaDialect(structuredClone(document)), amendments);
    this.ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    addFormats(this.ajv);
    // Formats the documents use beyond ajv-formats (uint64 …): accepted, their type and pattern say what may pass.
    for (const format of ['uint', 'uint32', 'uint64', 'int', 'int8', 'int16', 'decimal', 'url', 'address', 'hex']) {
      if (!this.ajv.formats[format]) this.ajv.addFormat(format, true);
    }
    this.ajv.addSchema({ ...this.document, $id: this.id }, this.id);
  }

  private get id(): string {
    return `urn:vendor-contract:${this.name.replace(/[^A-Za-z0-9-]/g, '-')}`;
  }

  /** The node a local JSON pointer names; $refs on the way are followed. */
  resolve(pointer: string): unknown {
    let node: unknown = this.document;
    for (const raw of pointer.replace(/^#\/?/, '').split('/')) {
      if (raw === '') continue;
      while (isObject(node) && typeof node.$ref === 'string') node = this.resolve(node.$ref);
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      node = isObject(node) || Array.isArray(node) ? (node as Json)[key] : undefined;
    }
    return node;
  }

  /** Follows a `$ref` chain to the pointer of the object it ends at. */
  private derefPointer(pointer: string): string {
    let current = pointer;
    for (let hops = 0; hops < 20; hops += 1) {
      const node = this.resolve(current);
      if (!isObject(node) || typeof node.$ref !== 'string') return current;
      current = node.$ref;
    }
    throw new Error(`${this.name}: $ref cycle at ${pointer}`);
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${this.id}${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  /** Every operation of the document as [method, path]. */
  operations(): { method: string; path: string }[] {
    return Object.entries(this.document.paths).flatMap(([path, item]) =>
      HTTP_METHODS.filter((m) => isObject(item) && isObject(item[m])).map((m) => ({ method: m.toUpperCase(), path })),
    );
  }

  /**
   * The operation answering `method` on `path` (relative to the contract's server): a literal path wins over a
   * template, then the template with fewer parameters.
   */
  findOperation(method: string, path: string): ContractOperation | undefined {
    const lower = method.toLowerCase();
    const candidates = Object.entries(this.document.paths).flatMap(([template, item]) => {
      if (!isObject(item) || !isObject(item[lower])) return [];
      const names: string[] = [];
      const pattern = template
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const param = /^\{([^}]+)\}$/.exec(part);
          if (param) {
            names.push(param[1]!);
            return '([^/]+)';
          }
          return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('');
      const match = new RegExp(`^${pattern}$`).exec(path);
      if (!match) return [];
      const pathParams = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)]));
      return [
        {
          method: method.toUpperCase(),
          path: template,
          pathParams,
          pointer: `#/paths/${escapePointer(template)}/${lower}`,
          names: names.length,
        },
      ];
    });
    candidates.sort((a, b) => a.names - b.names);
    const best = candidates[0];
    if (!best) return undefined;
    const { names: _names, ...operation } = best;
    return operation;
  }

  /** The response object documented for a status: the exact code, then its range (`4XX`), then `default`. */
  private responsePointer(operation: ContractOperation, status: number): string | undefined {
    const responses = this.resolve(`${operation.pointer}/responses`);
    if (!isObject(responses)) return undefined;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in responses);
    return key === undefined ? undefined : this.derefPointer(`${operation.pointer}/responses/${escapePointer(key)}`);
  }

  /**
   * Checks a reply body against the schema the contract documents for its operation and status.
   * @example contract.checkReply(op, 404, { error: 'not found' }) // { documented: true, hasSchema: true, errors: [] }
   */
  checkReply(operation: ContractOperation, status: number, body: unknown): ReplyCheck {
    const response = this.responsePointer(operation, status);
    if (response === undefined) return { documented: false, hasSchema: false, errors: [] };
    const content = this.resolve(`${response}/content`);
    const mediaType = isObject(content)
      ? Object.keys(content).find((t) => /^application\/([\w.+-]+\+)?json/.test(t) || t === '*/*')
      : undefined;
    if (mediaType === undefined || !isObject((content as Json)[mediaType])) {
      return { documented: true, hasSchema: false, errors: [] };
    }
    const schemaPointer = `${response}/content/${escapePointer(mediaType)}/schema`;
    if (this.resolve(schemaPointer) === undefined) return { documented: true, hasSchema: false, errors: [] };
    const validate = this.validator(schemaPointer);
    const ok = validate(body);
    return { documented: true, hasSchema: true, errors: ok ? [] : (validate.errors ?? []).map(describeError) };
  }

  /**
   * Checks a body against a schema given outside the document (its `#/…` references point into the document), e.g. an
   * error reply the contract leaves undocumented but the vendor's docs describe.
   */
  checkAgainst(schema: Record<string, unknown>, body: unknown): string[] {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      const anchored = JSON.parse(key.replace(/"\$ref":"#\//g, `"$ref":"${this.id}#/`)) as Record<string, unknown>;
      validate = this.ajv.compile(anchored);
      this.validators.set(key, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map(describeError);
  }

  private parameters(operation: ContractOperation): ParameterObject[] {
    const pathItemPointer = operation.pointer.slice(0, operation.pointer.lastIndexOf('/'));
    const byKey = new Map<string, ParameterObject>();
    for (const owner of [pathItemPointer, operation.pointer]) {
      const list = this.resolve(`${owner}/parameters`);
      if (!Array.isArray(list)) continue;
      list.forEach((_, i) => {
        const pointer = this.derefPointer(`${owner}/parameters/${i}`);
        const p = this.resolve(pointer);
        if (!isObject(p) || typeof p.name !== 'string' || typeof p.in !== 'string') return;
        byKey.set(`${p.in}:${p.name}`, {
          name: p.name,
          in: p.in,
          required: p.required === true,
          ...(typeof p.style === 'string' ? { style: p.style } : {}),
          ...(typeof p.explode === 'boolean' ? { explode: p.explode } : {}),
          pointer,
          schema: isObject(p.schema) ? p.schema : {},
        });
      });
    }
    return [...byKey.values()];
  }

  /** The JSON types a parameter schema allows, with $refs and compositions followed one level. */
  private typesOf(schema: Json): string[] {
    let node: unknown = schema;
    while (isObject(node) && typeof node.$ref === 'string') node = this.resolve(node.$ref);
    if (!isObject(node)) return [];
    if (typeof node.type === 'string') return [node.type];
    if (Array.isArray(node.type)) return node.type.filter((t): t is string => typeof t === 'string');
    for (const key of ['allOf', 'anyOf', 'oneOf']) {
      const list = node[key];
      if (Array.isArray(list)) return list.flatMap((s) => (isObject(s) ? this.typesOf(s) : []));
    }
    return [];
  }

  /** A query or path string read as the parameter's declared type (OpenAPI's `form` style). */
  private coerce(values: string[], parameter: ParameterObject): unknown {
    const types = this.typesOf(parameter.schema);
    const scalar = (value: string, itemTypes: string[]): unknown => {
      if ((itemTypes.includes('integer') || itemTypes.includes('number')) && /^-?\d+(\.\d+)?$/.test(value))
        return Number(value);
      if (itemTypes.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
      return value;
    };
    if (types.includes('array')) {
      const items = this.resolve(`${parameter.pointer}/schema/items`);
      const itemTypes = isObject(items) ? this.typesOf(items) : [];
      const explode = parameter.explode ?? (parameter.style ?? 'form') === 'form';
      const raw = explode && values.length > 1 ? values : values.flatMap((v) => v.split(','));
      return raw.map((v) => scalar(v, itemTypes));
    }
    return scalar(values[0] ?? '', types);
  }

  private checkParameter(parameter: ParameterObject, values: string[]): string[] {
    if (this.resolve(`${parameter.pointer}/schema`) === undefined) return [];
    const validate = this.validator(`${parameter.pointer}/schema`);
    const value = this.coerce(values, parameter);
    return validate(value)
      ? []
      : [
          `${parameter.in} parameter ${parameter.name}=${values.join(',')}: ${(validate.errors ?? []).map(describeError).join('; ')}`,
        ];
  }

  /**
   * Whether the operation is served from this origin: its servers (its own, else its path item's, else the
   * document's) name it; a server URL may hold variables (`https://{network}.g.alchemy.com/nft`). True when the
   * document names no server.
   */
  isServedFrom(operation: ContractOperation, origin: string): boolean {
    const servers = this.serverUrls(operation);
    return (
      servers.length === 0 ||
      servers.some((url) => {
        const own = /^[a-z]+:\/\/[^/]+/i.exec(url)?.[0] ?? url;
        const pattern = own.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/.]+');
        return new RegExp(`^${pattern}$`).test(origin);
      })
    );
  }

  /** The server URLs of an operation: its own, else its path item's, else the document's. */
  private serverUrls(operation: ContractOperation): string[] {
    const pathItem = operation.pointer.slice(0, operation.pointer.lastIndexOf('/'));
    for (const owner of [operation.pointer, pathItem, '#']) {
      const servers = this.resolve(`${owner}/servers`);
      if (Array.isArray(servers))
        return servers.flatMap((s) => (isObject(s) && typeof s.url === 'string' ? [s.url] : []));
    }
    return [];
  }

  /** The API-key schemes the operation accepts: each alternative is a list of schemes that must all be present. */
  private securityAlternatives(operation: ContractOperation): { in: string; name: string }[][] {
    const own = this.resolve(`${operation.pointer}/security`);
    const requirements = Array.isArray(own) ? own : this.document.security;
    if (!Array.isArray(requirements)) return [];
    return requirements.flatMap((requirement) => {
      if (!isObject(requirement)) return [];
      const schemes = Object.keys(requirement).map((name) => this.resolve(`#/components/securitySchemes/${name}`));
      const apiKeys = schemes.flatMap((s) =>
        isObject(s) && s.type === 'apiKey' && typeof s.in === 'string' && typeof s.name === 'string'
          ? [{ in: s.in, name: s.name }]
          : [],
      );
      return apiKeys.length === schemes.length ? [apiKeys] : [];
    });
  }

  /** The operation a request calls, from its method and its path after the base path. */
  private locate(
    request: SentRequest,
    expect: RequestExpectations,
  ): { operation: ContractOperation } | { problem: string } {
    const pathname = request.url.pathname;
    const base = expect.basePath.replace(/\/+$/, '');
    // A GraphQL or JSON-RPC endpoint is its base URL itself: its one operation is `/`.
    if (pathname !== base && !pathname.startsWith(`${base}/`))
      return { problem: `path ${pathname} is not under ${base || '/'}` };
    const path = pathname === base ? '/' : pathname.slice(base.length);
    const operation = this.findOperation(request.method, path);
    return operation ? { operation } : { problem: `no ${request.method} operation matches ${path}` };
  }

  /**
   * The operation a request calls, or undefined when none matches.
   * @example contract.operationOf({ method: 'GET', url: new URL('https://api.neynar.com/v2/farcaster/user/bulk/?fids=3'), headers: {} }, { basePath: '' })?.path
   */
  operationOf(request: SentRequest, expect: RequestExpectations): ContractOperation | undefined {
    const located = this.locate(request, expect);
    return 'operation' in located ? located.operation : undefined;
  }

  /**
   * Checks a request as sent against the contract: an operation exists for its method and path, every query
   * parameter is one the operation declares (or its key scheme), each value has the declared type, required ones are
   * present, and the configured key travels where a security scheme of the operation says.
   * @returns what does not match; empty when the request is one the contract describes.
   */
  checkRequest(request: SentRequest, expect: RequestExpectations): string[] {
    const located = this.locate(request, expect);
    if ('problem' in located) return [located.problem];
    const { operation } = located;
    const problems: string[] = [];

    if (expect.origin !== undefined && !this.isServedFrom(operation, expect.origin)) {
      problems.push(
        `${operation.path} is served from ${this.serverUrls(operation).join(' or ')}, not ${expect.origin}`,
      );
    }

    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const alternatives = this.securityAlternatives(operation);
    const keyQueryNames = new Set(alternatives.flat().flatMap((s) => (s.in === 'query' ? [s.name] : [])));
    const parameters = this.parameters(operation);
    const query = request.url.searchParams;
    for (const name of new Set(query.keys())) {
      if (keyQueryNames.has(name)) continue;
      const declared = parameters.find((p) => p.in === 'query' && p.name === name);
      if (!declared) problems.push(`query parameter ${name} is not declared by ${operation.method} ${operation.path}`);
      else problems.push(...this.checkParameter(declared, query.getAll(name)));
    }
    for (const parameter of parameters) {
      if (parameter.in === 'query' && parameter.required && !query.has(parameter.name))
        problems.push(`required query parameter ${parameter.name} is missing`);
      if (parameter.in === 'path') {
        const value = operation.pathParams[parameter.name];
        if (value === undefined) problems.push(`path parameter ${parameter.name} is missing`);
        else problems.push(...this.checkParameter(parameter, [value]));
      }
      if (parameter.in === 'header' && parameter.required && headers[parameter.name.toLowerCase()] === undefined)
        problems.push(`required header ${parameter.name} is missing`);
    }

    if (expect.credential !== undefined) {
      if (expect.credentialPathParam !== undefined) {
        if (operation.pathParams[expect.credentialPathParam] !== expect.credential)
          problems.push(`the key is not in the path parameter ${expect.credentialPathParam}`);
      } else if (alternatives.length > 0) {
        const carried = alternatives.some((schemes) =>
          schemes.every((s) =>
            s.in === 'header'
              ? headers[s.name.toLowerCase()] === expect.credential
              : s.in === 'query'
                ? query.get(s.name) === expect.credential
                : false,
          ),
        );
        if (!carried) {
          const where = alternatives.map((a) => a.map((s) => `${s.in} ${s.name}`).join(' + ')).join(' or ');
          problems.push(`the key is not sent as the contract's ${where}`);
        }
      }
    }
    return problems;
  }
}
