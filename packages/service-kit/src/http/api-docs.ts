import { Router } from 'express';
import swaggerUi from 'swagger-ui-express';
import { buildOpenApiDocument, type ServiceName } from '@bo/contracts';
import { docsPagePolicy } from './security.ts';

/** `<prefix>/v3/api-docs` (the OpenAPI document) and `<prefix>/swagger-ui` (its UI), springdoc's paths. */
export function apiDocsRouter(service: ServiceName): Router {
  const document = buildOpenApiDocument(service);
  const router = Router();
  router.get('/v3/api-docs', (_req, res) => {
    res.json(document);
  });
  router.use('/swagger-ui', docsPagePolicy(), swaggerUi.serveFiles(document), swaggerUi.setup(document, { customSiteTitle: String((document.info as { title: string }).title) }));
  return router;
}
