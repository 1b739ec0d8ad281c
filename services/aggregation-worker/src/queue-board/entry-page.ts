import type { RequestHandler } from 'express';

/** bull-board's page links Google Fonts: the dashboard must render with no host outside the service. */
const FONT_LINK = /<link[^>]*fonts\.googleapis\.com[^>]*>\s*/g;

/**
 * A page opened as `http://user:password@host/…` cannot fetch its translations and data (browsers
 * refuse request URLs with credentials, and relative ones inherit them): reopen it without them.
 * (`location.href` hides them, `document.URL` shows them.) The browser keeps the credentials it
 * just used for the site and sends them again.
 */
const DROP_URL_CREDENTIALS = `<script>if(/^[a-z]+:\\/\\/[^/]*@/i.test(document.URL))location.replace(document.URL.replace(/\\/\\/[^/]*@/,'//'))</script>`;

/** Rewrites bull-board's HTML page as it is sent; its API answers (JSON) and assets pass untouched. */
export const offlineEntryPage: RequestHandler = (_req, res, next) => {
  const send = res.send.bind(res);
  res.send = (body?: unknown) =>
    send(
      typeof body === 'string' && /^<!doctype html>/i.test(body)
        ? body.replace(FONT_LINK, '').replace('<head>', `<head>${DROP_URL_CREDENTIALS}`)
        : body,
    );
  next();
};
