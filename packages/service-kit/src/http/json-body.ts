import express, { type RequestHandler } from 'express';

/** JSON bodies up to 1 MB; anything larger is refused with PAYLOAD_TOO_LARGE by the error handler. */
export const jsonBody = (limit = '1mb'): RequestHandler => express.json({ limit, strict: true });
