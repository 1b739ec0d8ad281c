import { ErrorCode } from './common.ts';
import { operationsOf, type OperationSpec, type ServiceName } from './operations.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const INFO: Record<ServiceName, { title: string; description: string; prefix: string }> = {
  backoffice: {
    title: 'Back-office API',
    description: 'AI goods assistance, order/sales statistics with Excel downloads, and dashboard goods counts.',
    prefix: '/api/bo',
  },
  member: {
    title: 'Member API (internal)',
    description: 'Staff discount limit: increase/decrease and read. Reachable from internal servers only.',
    prefix: '/api/member',
  },
};

type Json = Record<string, unknown>;

/** Move every schema with an `$id` into components and point at it, as OpenAPI tools expect. */
function componentise(schema: unknown, components: Record<string, Json>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => componentise(s, components));
  if (!schema || typeof schema !== 'object') return schema;
  const { $id, ...rest } = schema as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(rest)) out[k] = componentise(v, components);
  if (typeof $id === 'string') {
    components[$id] ??= out;
    return { $ref: `#/components/schemas/${$id}` };
  }
  return out;
}

function failure(op: OperationSpec, components: Record<string, Json>, description: string) {
  return { description, content: { '*/*': { schema: componentise(op.envelope ? op.response : ErrorCode, components) } } };
}

function operationObject(op: OperationSpec, components: Record<string, Json>): Json {
  const parameters: Json[] = [];
  if (op.query) {
    const required = new Set(op.query.required ?? []);
    for (const [name, schema] of Object.entries(op.query.properties)) {
      const s = componentise(schema, components) as Json;
      parameters.push({
        name,
        in: 'query',
        required: required.has(name),
        description: schema.description,
        schema: s,
        ...(schema.type === 'array' ? { style: 'form', explode: true } : {}),
      });
    }
  }
  for (const h of op.headers ?? []) {
    parameters.push({ name: h.name, in: 'header', required: false, description: h.description, schema: { type: 'string' } });
  }
  if (op.auth === 'internal') {
    parameters.push({
      name: 'Authorization',
      in: 'header',
      required: false,
      description: 'Access Token (required when the service is configured with MEMBER_ACCESS_TOKEN)',
      schema: { type: 'string' },
    });
  }

  const ok =
    op.response === 'excel'
      ? {
          description: 'Excel workbook (.xlsx), all rows, no paging',
          content: { [XLSX]: { schema: { type: 'string', format: 'binary' } } },
        }
      : op.response === 'empty'
        ? { description: 'Applied (no body)' }
        : { description: 'OK', content: { '*/*': { schema: componentise(op.response, components) } } };

  const responses: Json = { '200': ok, '900': failure(op, components, 'Declared failure: validation or business error') };
  if (op.auth === 'bearer') {
    responses['401'] = failure(op, components, 'Missing, malformed, expired or invalid bearer token');
    responses['403'] = failure(op, components, 'Not allowed for this user or supplier');
  } else {
    responses['403'] = failure(op, components, 'Caller is not an internal server, or the access token is wrong');
  }

  return {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.tag],
    ...(op.deprecated ? { deprecated: true, description: `Deprecated: use ${op.deprecated.successor}.` } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: componentise(op.body, components) } } } } : {}),
    responses,
    ...(op.auth === 'bearer' ? { security: [{ accessToken: [] }] } : {}),
  };
}

/** The OpenAPI 3.1 document of one service, built from the operation list. */
export function buildOpenApiDocument(service: ServiceName, version = '2.0.0'): Json {
  const info = INFO[service];
  const components: Record<string, Json> = {};
  const paths: Record<string, Json> = {};
  for (const op of operationsOf(service)) {
    (paths[op.path] ??= {})[op.method] = operationObject(op, components);
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, description: info.description, version },
    servers: [{ url: info.prefix }],
    paths,
    components: {
      schemas: components,
      ...(service === 'backoffice' ? { securitySchemes: { accessToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } } : {}),
    },
  };
}
