/**
 * The intake HTTP app (docs/intake.md): wiring only. Everything arrives as deps;
 * main.ts is the only reader of configuration.
 */
import {
  bodyTooLargeMessage,
  createLeadValidator,
  INTAKE_MESSAGES,
  type LeadValidator,
} from '@leadhook/contracts';
import type { Pool } from '@leadhook/db';
import { errorBody, IntakeService, leadCounter } from '@leadhook/intake-core';
import {
  httpObservability,
  type Logger,
  type Metrics,
  standardHeaders,
} from '@leadhook/observability';
import type { QueueSet, RedisClient } from '@leadhook/queue';
import { createRateLimiter } from '@leadhook/rate-limit';
import cors from 'cors';
import express, {
  type ErrorRequestHandler,
  type Express,
  type RequestHandler,
  type Router,
} from 'express';
import { intakeLogFields, intakeRoutes, noteAnswer, sendNotFound } from './intake.routes.js';
import { providerHookRoutes } from './provider-hooks.routes.js';
import { twilioHookRoutes } from './twilio-hooks.routes.js';

export interface IntakeOptions {
  /** The base of post URLs. Not needed to route: intake answers its path on any host. */
  publicBaseUrl?: string;
  maxBodyBytes: number;
  /** Requests per second per source unless the source sets its own; 0 = unlimited. */
  defaultRateLimitPerSecond: number;
  duplicateWindowDays: number;
  /**
   * Express's `trust proxy`: false (the default) takes the consent IP from the TCP
   * peer; true, or a number of hops, takes it from X-Forwarded-For. Turn it on only
   * behind a proxy that sets that header, or sellers could forge the IP.
   */
  trustProxy: boolean | number;
  /** Prefix of the limiter's Redis keys (QUEUE_PREFIX): deployments sharing a Redis keep their own counts. */
  redisKeyPrefix?: string;
  /** PROVIDER_WEBHOOK_SECRET: serves the provider's signed hooks; null or absent: off (404). */
  providerWebhookSecret?: string | null;
  /**
   * TWILIO_AUTH_TOKEN when PROVIDER=twilio: serves Twilio's callbacks, signed
   * with it over publicBaseUrl + path; null or absent: off (404).
   */
  twilioAuthToken?: string | null;
}

export interface IntakeDeps {
  pool: Pool;
  queues: QueueSet;
  /** For the rate limiter. */
  redis: RedisClient;
  logger: Logger;
  metrics: Metrics;
  options: IntakeOptions;
  /** Routes served before the catch-all 404, e.g. healthRoutes. */
  health?: Router;
  /** Tests pass a validator with a fixed clock. */
  validate?: LeadValidator;
}

/** Masks the source key, a credential, in logged paths. */
export function redactIntakeUrl(url: string): string {
  // Intake has one route, and express matches it case-insensitively: keep the
  // first segment, and the account id after a marketing_sources segment in any
  // case; everything deeper (the key, or whatever a mistyped URL carries) is
  // replaced, so no spelling of a post URL logs its key.
  const [path = '', query] = url.split(/(?=[?#])/, 2);
  const segments = path.split('/');
  const keep = /^marketing_sources$/i.test(segments[1] ?? '') ? 3 : 2;
  const redacted = segments.map((segment, i) =>
    i < keep || segment === '' ? segment : '[redacted]',
  );
  return redacted.join('/') + (query === undefined ? '' : '?[redacted]');
}

export function createApp(deps: IntakeDeps): Express {
  const { logger, metrics, options } = deps;
  const service = new IntakeService({
    pool: deps.pool,
    queues: deps.queues,
    limiter: createRateLimiter({
      redis: deps.redis,
      onRedisError: (err) =>
        logger.warn({ err }, 'rate limiter unavailable; letting the request through'),
      keyPrefix: options.redisKeyPrefix ?? 'leadhook',
      name: 'intake',
    }),
    validate: deps.validate ?? createLeadValidator(),
    logger,
    defaultRateLimitPerSecond: options.defaultRateLimitPerSecond,
    duplicateWindowDays: options.duplicateWindowDays,
  });

  const app = express();
  app.disable('x-powered-by');
  // Intake answers POSTs: an ETag (a hash of every body express sends) has nothing to validate.
  app.disable('etag');
  app.use(standardHeaders);
  app.set('trust proxy', options.trustProxy);
  app.use((_req, res, next) => {
    res.locals.receivedAt = new Date();
    next();
  });
  // One line per request; intake's answers add what happened to the lead
  // (result, ids, reason codes) to it rather than writing lines of their own.
  app.use(
    httpObservability({
      logger,
      metrics,
      redactUrl: redactIntakeUrl,
      logFields: intakeLogFields,
    }),
  );
  // The post URL is the credential, not the origin: any page may post a lead
  // from JavaScript, so preflights from every origin are answered.
  app.use(corsAnyOrigin());
  if (deps.health) app.use(deps.health);
  app.use(
    intakeRoutes({
      service,
      maxBodyBytes: options.maxBodyBytes,
      leads: leadCounter(metrics),
      ...(options.publicBaseUrl === undefined ? {} : { publicBaseUrl: options.publicBaseUrl }),
    }),
  );
  if (options.twilioAuthToken) {
    app.use(
      twilioHookRoutes({
        ...deps,
        authToken: options.twilioAuthToken,
        maxBodyBytes: options.maxBodyBytes,
        ...(options.publicBaseUrl === undefined ? {} : { publicBaseUrl: options.publicBaseUrl }),
      }),
    );
  }
  if (options.providerWebhookSecret) {
    app.use(
      providerHookRoutes({
        ...deps,
        secret: options.providerWebhookSecret,
        maxBodyBytes: options.maxBodyBytes,
      }),
    );
  }
  app.use((_req, res) => sendNotFound(res));
  app.use(errorHandler(deps));
  return app;
}

const CORS_OPTIONS = {
  origin: '*',
  methods: ['POST'],
  exposedHeaders: ['Idempotent-Replayed', 'Retry-After', 'X-Request-Id'],
  maxAge: 86_400,
} as const;

/**
 * `cors(CORS_OPTIONS)`, with the two headers it sets on every non-preflight
 * request (a static origin "*", no credentials, so no Vary) set directly: the
 * package resolves its options through three callbacks per request, CPU paid by
 * every lead (bench/RESULTS.md, "Figures that code comments quoted"). Preflights
 * still go to the package.
 */
function corsAnyOrigin(): RequestHandler {
  const preflight = cors({
    ...CORS_OPTIONS,
    methods: [...CORS_OPTIONS.methods],
    exposedHeaders: [...CORS_OPTIONS.exposedHeaders],
  });
  const exposed = CORS_OPTIONS.exposedHeaders.join(',');
  return (req, res, next) => {
    if (req.method === 'OPTIONS') return preflight(req, res, next);
    res.setHeader('Access-Control-Allow-Origin', CORS_OPTIONS.origin);
    res.setHeader('Access-Control-Expose-Headers', exposed);
    next();
  };
}

/** Body-parser's errors are the seller's (4xx); anything else is ours, logged once. */
function errorHandler(deps: IntakeDeps): ErrorRequestHandler {
  return (err: unknown, _req, res, next) => {
    if (res.headersSent) return next(err);
    const { type, status } = (err ?? {}) as { type?: unknown; status?: unknown };
    switch (type) {
      case 'entity.too.large':
        noteAnswer(res, { result: 'body_too_large' });
        return res
          .status(413)
          .json(errorBody('body_too_large', bodyTooLargeMessage(deps.options.maxBodyBytes)));
      case 'charset.unsupported':
      case 'encoding.unsupported':
        noteAnswer(res, { result: 'unsupported_media_type' });
        return res
          .status(415)
          .json(errorBody('unsupported_media_type', INTAKE_MESSAGES.unsupported_encoding));
      case 'entity.parse.failed':
        noteAnswer(res, { result: 'malformed_body' });
        return res.status(400).json(errorBody('malformed_body', INTAKE_MESSAGES.malformed_json));
    }
    if (typeof status === 'number' && status >= 400 && status < 500) {
      noteAnswer(res, { result: 'malformed_body' });
      return res.status(400).json(errorBody('malformed_body', INTAKE_MESSAGES.unreadable));
    }
    deps.logger.error({ err, request_id: res.getHeader('x-request-id') }, 'intake request failed');
    res.status(500).json({
      status: 'error',
      errors: [
        { field: null, code: 'internal_error', message: 'Something went wrong on our side.' },
      ],
    });
  };
}
