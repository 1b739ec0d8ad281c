import type { Express } from 'express';
import swaggerUi from 'swagger-ui-express';
import { buildOpenApiDocument, type ServiceName } from '@bo/contracts';
import { docsPagePolicy } from './security.ts';

/**
 * `<prefix>/v3/api-docs` (the OpenAPI document) and `<prefix>/swagger-ui` (its UI), springdoc's
 * paths, each mounted on its own full path (see `createServiceApp`).
 */
export function mountApiDocs(app: Express, prefix: string, service: ServiceName): void {
  const document = buildOpenApiDocument(service);
  app.get(`${prefix}/v3/api-docs`, (_req, res) => {
    res.json(document);
  });
  app.use(
    `${prefix}/swagger-ui`,
    docsPagePolicy(),
    swaggerUi.serveFiles(document),
    swaggerUi.setup(document, { customSiteTitle: String((document.info as { title: string }).title) }),
  );
}
