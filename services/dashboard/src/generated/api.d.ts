/**
 * Generated from the management API's OpenAPI document by openapi-typescript:
 * do not edit. Regenerate with `pnpm dashboard:api-types` (docs/dashboard.md, "The API client").
 */

export interface paths {
    "/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The authenticated account (also a connection test) */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Update the account's name or duplicate window */
        patch: operations["updateAccount"];
        trace?: never;
    };
    "/account/api_keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's active API keys, newest first
         * @description Never the keys themselves: their id, name, prefix and when they were last used.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Issue a named API key besides the existing ones
         * @description For one integration each (Zapier, a CRM…), so that each can be revoked alone. The key is shown only in this answer.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/api_keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key; it fails from its next request
         * @description Revoking the key that makes this request is allowed: the answer is still 204, and the key fails from the next request. A revoked key answers 404 here.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account/api_keys/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the calling API key by a new one; the calling key stops working at once
         * @description Rotates the key this request is authenticated with: the new key has the same name, and the account's other keys keep working.
         */
        post: operations["rotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/activity_catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every event and outcome label with its meaning
         * @description The whole catalog in one page (next_cursor is always null). `interested` is both an event and an outcome.
         */
        get: operations["getActivityCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deliveries/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One delivery with its attempts */
        get: operations["getDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deliveries/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again, with the same webhook-id
         * @description Whatever its status, the delivery is set pending, due now, with the whole retry schedule again, and handed to the webhook worker by this call: a healthy subscriber gets it within moments (if Redis is unreachable, the webhook worker finds it in the database within its reconcile interval, 5 s). Its webhook-id stays the activity id, so a receiver that already handled it deduplicates. Earlier attempts stay listed and counted in attempt_count. Answers 200 with the delivery as it is now (`pending`, or `queued` behind an earlier unfinished delivery of the same lead); the send itself is asynchronous.
         */
        post: operations["redeliver"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document as a page
         * @description The API reference: this document rendered for reading in a browser, by a renderer the API serves itself (no request leaves its origin).
         */
        get: operations["getApiReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A file the reference page loads */
        get: operations["getApiReferenceAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's hooks, newest first
         * @description Only the subscriptions made by POST /hooks; GET /subscriptions lists them all.
         */
        get: operations["listHooks"];
        put?: never;
        /**
         * Subscribe a URL (a REST hook); no handshake
         * @description A hook is an activity subscription (listed by GET /subscriptions with created_via `hooks`): the same deliveries, signing, retries and URL rules. Without playbook_id it receives the activities of every playbook of the account. A 410 Gone from target_url deletes the hook.
         */
        post: operations["subscribeHook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unsubscribe a hook
         * @description Deletes the hook as DELETE /subscriptions/{id} does. An id of a subscription not made by POST /hooks answers 404.
         */
        delete: operations["unsubscribeHook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hooks/samples": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Up to 3 sample webhook bodies of a label, newest first
         * @description Built exactly as deliveries are: the account's latest activities of the label (among its 200 newest leads), or one realistic synthetic activity when it has none (nothing is stored or sent).
         */
        get: operations["hookSamples"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/leads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's leads, newest first, optionally filtered
         * @description Filters combine (a lead matches every one given) and page like the unfiltered list. `phone` is compared in E.164 whatever its notation, `email` whatever its case, `external_id` exactly; `from`/`to` bound the time the lead was received (`consent.received_at`) with the bounds of the source stats: a day from 00:00 UTC, a `to` day inclusive, or an ISO 8601 instant.
         */
        get: operations["listLeads"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/leads/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a lead with its activity timeline, consent evidence and duplicate attributions */
        get: operations["getLead"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/leads/{id}/activities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report an activity on a lead (dialer, copilot, an agent, an inbound reply)
         * @description The activity takes the same path as the playbook worker's own: it is on the timeline and sent to the subscriptions that selected its label. An outcome is terminal and stops an active play (a `stopped` event is recorded first). A message_received whose `data.body` is STOP (or STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT; any case) opts the lead out at once: `stopped` and the outcome `opted_out` follow it. The answer is the reported activity, with every other activity the report recorded in `caused`, in occurrence order.
         */
        post: operations["reportActivity"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketing_sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List marketing sources, newest first */
        get: operations["listMarketingSources"];
        put?: never;
        /** Create a marketing source */
        post: operations["createMarketingSource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketing_sources/{account_id}/{source_key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The post URL opened in a browser: its Integration Instructions
         * @description Leads are posted, never fetched. A GET that prefers text/html (a browser) gets the source's Integration Instructions as a self-contained HTML page; any other request with another method than POST gets 405 with Allow: POST. A URL that is not a live source answers the one 404, whatever the method.
         */
        get: operations["openPostUrl"];
        put?: never;
        /** Submit a lead (sellers; the URL is the credential) */
        post: operations["submitLead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketing_sources/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a marketing source */
        get: operations["getMarketingSource"];
        put?: never;
        post?: never;
        /** Delete a marketing source */
        delete: operations["deleteMarketingSource"];
        options?: never;
        head?: never;
        /** Update a marketing source */
        patch: operations["updateMarketingSource"];
        trace?: never;
    };
    "/marketing_sources/{id}/integration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The source's Integration Instructions for its seller */
        get: operations["getIntegrationInstructions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketing_sources/{id}/leads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a lead in a source, as if its seller had posted it
         * @description For automations: the same lead as a post to the source's post_url (docs/intake.md), without the secret URL. The body is a lead (LeadSubmission), validated by intake's own rules: the lead's outcome is answered with intake's bodies, not the API's envelope: 201 accepted (stored, enrolled in the source's playbook), 200 duplicate, 422 rejected with every problem listed (and counted in the source's stats), 409 for an Idempotency-Key sent again with another body. The source's consent_required and rate_limit apply. A paused source answers 404, as its post URL does. Bodies are JSON only; a lead is never answered with a redirect.
         */
        post: operations["createMarketingSourceLead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketing_sources/{id}/rotate_url": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Issue a new post_url; the old one stops working at once */
        post: operations["rotateMarketingSourceUrl"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/marketing_sources/{id}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Source performance: accepted, duplicate, rejected by reason, and outcomes reached, per day
         * @description Counts over a range of UTC days (default: the last 30, today included; at most 366). Submissions count by when they arrived; `outcomes` counts the source's leads by when their outcome occurred and lists every outcome label of the catalog (0 when none). `by_day` has one entry per day of the range, zeros included, with the same figures as the whole range (accepted, duplicate, rejected by reason, outcomes by label).
         */
        get: operations["getMarketingSourceStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/playbooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List playbooks, newest first */
        get: operations["listPlaybooks"];
        put?: never;
        /** Create a playbook */
        post: operations["createPlaybook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/playbooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a playbook */
        get: operations["getPlaybook"];
        put?: never;
        post?: never;
        /** Delete a playbook */
        delete: operations["deletePlaybook"];
        options?: never;
        head?: never;
        /** Update a playbook */
        patch: operations["updatePlaybook"];
        trace?: never;
    };
    "/playbooks/{id}/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a playbook's subscriptions, newest first
         * @description Only the subscriptions of this playbook; account-wide ones are listed by GET /subscriptions.
         */
        get: operations["listPlaybookSubscriptions"];
        put?: never;
        /**
         * Subscribe a URL to a playbook's activities
         * @description Deliveries carry the playbook's leads' activities. `events` and `outcomes` are separate lists of catalog labels, `["*"]` for all of that kind, or `[]` for none; together at least one label. The answer is the only place the signing secret (`secret`, `whsec_…`) is shown; reads, lists and updates never carry it.
         */
        post: operations["createPlaybookSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/stats/sources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every marketing source with its performance: one answer for a dashboard table
         * @description The account's marketing sources (not deleted), newest first, each with its id, name, source_type, status and playbook_id and the figures of `GET /marketing_sources/{id}/stats` over the same range (same `from`/`to`, same defaults), without `by_day`. Sources with nothing in the range are listed with zeros. Up to 1,000 sources an answer (`limit`, default 1,000); an account with more pages on with `cursor`.
         */
        get: operations["listMarketingSourceStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's subscriptions, newest first
         * @description Account-wide (playbook_id null) and per-playbook subscriptions alike, or with `scope=account` the account-wide ones only.
         */
        get: operations["listSubscriptions"];
        put?: never;
        /**
         * Subscribe a URL to every playbook's activities (account-wide)
         * @description An account-wide subscription (playbook_id null) receives the activities of every playbook of the account, present and future. `events` and `outcomes` are separate lists of catalog labels, `["*"]` for all of that kind, or `[]` for none; together at least one label. The answer is the only place the signing secret (`secret`, `whsec_…`) is shown; reads, lists and updates never carry it.
         */
        post: operations["createAccountSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a subscription (without its secret) */
        get: operations["getSubscription"];
        put?: never;
        post?: never;
        /** Delete a subscription */
        delete: operations["deleteSubscription"];
        options?: never;
        head?: never;
        /**
         * Update url, events, outcomes or enabled
         * @description The given fields replace the stored ones; the result must still select at least one label. `enabled: false` records disabled_reason `manual`; `enabled: true` on a disabled subscription clears disabled_code, disabled_reason, disabled_at and failing_since.
         */
        patch: operations["updateSubscription"];
        trace?: never;
    };
    "/subscriptions/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The subscription's delivery log, newest first, each delivery with its attempts
         * @description Filters combine (a delivery matches every one given) and page like the unfiltered list. `from`/`to` bound the time the delivery was created (`created_at`, the time `recover` compares with `since`) with the bounds of `GET /leads`: a day from 00:00 UTC, a `to` day inclusive, or an ISO 8601 instant.
         */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send again every failed delivery created since a date
         * @description Each failed delivery of the subscription created at or after `since` is reset and sent at once, as redeliver does. Pending and succeeded deliveries are left alone. A disabled subscription stays disabled: enable it first for the deliveries to go out.
         */
        post: operations["recoverDeliveries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/{id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a new signing secret; the previous one keeps signing for 24 hours
         * @description During the overlap every delivery carries two signatures in `webhook-signature` (space-separated, Standard Webhooks), one per secret, so the receiver can switch without dropping a delivery. A second rotation inside the overlap drops the oldest secret.
         */
        post: operations["rotateSubscriptionSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscriptions/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed test delivery now and report the answer
         * @description A delivery signed like any other, with activity_type `event`, activity_label `test` (a reserved label: GET /activity_catalog lists it in group `reserved`; no subscription can select it, and every subscription gets its test delivery whatever it selected), an id of its own (`act_test_…`, also its webhook-id), empty lead fields and `data: {}`. It is sent once, now, and not stored; the answer reports what the subscriber answered. A subscriber that fails is still a 200 here, with `ok: false`.
         */
        post: operations["testSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/suppressions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the do-not-contact list, in phone order
         * @description Optionally one reason only (`reason`), or the phones one import added (`import_id`).
         */
        get: operations["listSuppressions"];
        put?: never;
        /**
         * Put a phone on the do-not-contact list
         * @description The phone is normalised to E.164 as intake does. 201 with the new entry; a phone already listed keeps its first entry (reason, provenance, created_at), answered with 200.
         */
        post: operations["createSuppression"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/suppressions/{phone}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Look a phone up (any notation, URL-encoded) */
        get: operations["getSuppression"];
        put?: never;
        post?: never;
        /**
         * Take a phone off the list (recorded)
         * @description The only way off the list. The removal is recorded (the phone, the entry's reason and created_at, the API key that removed it, when). The phone can be texted again; a later STOP puts it back.
         */
        delete: operations["deleteSuppression"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/suppressions/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Put up to 10000 phones on the list at once
         * @description All or nothing: every row is checked, and if any is not a dialable phone the answer is 422 listing each bad row (field `phones[i]` for JSON, `line n` for CSV; code `invalid`) and nothing is stored. Otherwise the new phones are added with reason `imported` and the answer's import_id; phones already listed keep their first entry. More than 10000 rows is 422 `too_many_rows`; the body may be up to 1 MiB.
         */
        post: operations["importSuppressions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/suppressions/removals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the phones taken off the list, newest first
         * @description Every removal is kept: the phone, the reason and created_at its entry had, the API key that removed it, and when. `phone` (any notation) shows one phone's removals only.
         */
        get: operations["listSuppressionRemovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Account */
        Account: {
            /**
             * @description The first characters of the newest active API key, safe to show.
             * @example lh_AbCdEf
             */
            readonly api_key_prefix: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /**
             * @description How long the same phone counts as a duplicate in this account, in days; null = the deployment default (DUPLICATE_WINDOW_DAYS).
             * @example 30
             */
            duplicate_window_days: number | null;
            /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            name: string;
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly updated_at: string;
        };
        /** AccountUpdate */
        AccountUpdate: {
            /**
             * @description How long the same phone counts as a duplicate in this account, in days; null = the deployment default (DUPLICATE_WINDOW_DAYS).
             * @example 30
             */
            duplicate_window_days?: number | null;
            name?: string;
        };
        /** Activity */
        Activity: {
            /**
             * @description A label of GET /activity_catalog.
             * @example message_received
             */
            activity_label: string;
            /** @description A short human sentence. */
            activity_note: string;
            /**
             * @description event, or outcome (terminal: at most one per lead).
             * @enum {string}
             */
            activity_type: "event" | "outcome";
            /** @description Details of the activity, e.g. `body` for message_received. */
            data: Record<string, never>;
            /** @example act_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            /** @example lead_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly lead_id: string;
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly occurred_at: string;
        };
        /** ActivityCatalog */
        ActivityCatalog: {
            data: {
                /**
                 * @description `reserved`: a label leadhook sends by itself (`test`, the test delivery), listed so subscribers know it; it cannot be selected in a subscription or reported through POST /leads/{id}/activities.
                 * @enum {string}
                 */
                group: "lifecycle" | "messaging" | "calls" | "party_line" | "copilot" | "outcome" | "reserved";
                /** @example first_message_sent */
                label: string;
                /** @description One line saying when the activity happens. */
                meaning: string;
                /**
                 * @description event, or outcome (terminal: at most one per lead).
                 * @enum {string}
                 */
                type: "event" | "outcome";
            }[];
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** ActivityCreate */
        ActivityCreate: {
            /**
             * @description A label of GET /activity_catalog of the given activity_type; anything else is 422. Only one outcome per lead: a second is 409 outcome_exists.
             * @example call_answered
             * @example qualified
             * @example message_received
             */
            activity_label: string;
            /**
             * @description event, or outcome (terminal: at most one per lead).
             * @enum {string}
             */
            activity_type: "event" | "outcome";
            /**
             * @description Details (at most 50 properties, 16384 bytes as JSON). message_received requires `data.body`, the text of the reply: STOP and its synonyms opt the lead out at once.
             * @example {
             *       "body": "Yes, call me after 5pm"
             *     }
             */
            data?: Record<string, never>;
        };
        /** ActivityReport */
        ActivityReport: {
            /**
             * @description A label of GET /activity_catalog.
             * @example message_received
             */
            activity_label: string;
            /** @description A short human sentence. */
            activity_note: string;
            /**
             * @description event, or outcome (terminal: at most one per lead).
             * @enum {string}
             */
            activity_type: "event" | "outcome";
            /** @description Other activities this report recorded, in occurrence order; [] when none (e.g. stopped and opted_out after a STOP reply). */
            caused: {
                /**
                 * @description A label of GET /activity_catalog.
                 * @example message_received
                 */
                activity_label: string;
                /** @description A short human sentence. */
                activity_note: string;
                /**
                 * @description event, or outcome (terminal: at most one per lead).
                 * @enum {string}
                 */
                activity_type: "event" | "outcome";
                /** @description Details of the activity, e.g. `body` for message_received. */
                data: Record<string, never>;
                /** @example act_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                /** @example lead_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly lead_id: string;
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly occurred_at: string;
            }[];
            /** @description Details of the activity, e.g. `body` for message_received. */
            data: Record<string, never>;
            /** @example act_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            /** @example lead_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly lead_id: string;
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly occurred_at: string;
        };
        /** ActivityWebhook */
        ActivityWebhook: {
            /**
             * Format: date-time
             * @description Equal to occurred_at.
             */
            activity_created_at: string;
            /** @example first_message_sent */
            activity_label: string;
            /** @description A short human sentence. */
            activity_note: string;
            /** @description The enrollment (play) id, or null when the lead has none. */
            activity_play_id: string | null;
            /** @enum {string} */
            activity_type: "event" | "outcome";
            /** @description Label-specific details (e.g. `body`, `until`). */
            data: Record<string, never>;
            /** @description The activity id; also `webhook-id`. */
            id: string;
            /** @description The extra fields the seller sent with the lead, as sent. */
            lead_additional_info: Record<string, never>;
            /** Format: date-time */
            lead_created_at: string;
            lead_email: string;
            lead_first_name: string;
            lead_id: string;
            lead_last_name: string;
            lead_opted_out: boolean;
            /** @description leadhook itself (key: the lead id), then the marketing source at acceptance with the seller’s external_id, when one was sent. */
            lead_originators: {
                key: string;
                origin: string;
            }[];
            marketing_source: {
                id: string;
                name: string;
            };
            /** Format: date-time */
            occurred_at: string;
            playbook: {
                id: string;
                name: string;
            };
        };
        /** ApiKey */
        ApiKey: {
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /** @example key_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            /**
             * Format: date-time
             * @description About when the key last authenticated a request: recorded at most once a minute per key, so it may lag by up to a minute; null if never used.
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly last_used_at: string | null;
            /** @example Zapier */
            name: string;
            /**
             * @description The first characters of the key, safe to show.
             * @example lh_AbCdEf
             */
            readonly prefix: string;
        };
        /** ApiKeyCreate */
        ApiKeyCreate: {
            /**
             * @description What the key is for (e.g. `Zapier`), 1 to 100 characters once trimmed; leading and trailing blanks are dropped.
             * @example Zapier
             */
            name: string;
        };
        /** ApiKeyList */
        ApiKeyList: {
            data: {
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly created_at: string;
                /** @example key_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                /**
                 * Format: date-time
                 * @description About when the key last authenticated a request: recorded at most once a minute per key, so it may lag by up to a minute; null if never used.
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly last_used_at: string | null;
                /** @example Zapier */
                name: string;
                /**
                 * @description The first characters of the key, safe to show.
                 * @example lh_AbCdEf
                 */
                readonly prefix: string;
            }[];
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** ApiKeyRotation */
        ApiKeyRotation: {
            /** @description The new API key. It is not shown again; the previous key no longer works. */
            api_key: string;
            /** @example lh_AbCdEf */
            api_key_prefix: string;
        };
        /** ApiKeyWithSecret */
        ApiKeyWithSecret: {
            /**
             * @description The API key. Shown only in this answer; store it now.
             * @example lh_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg
             */
            readonly api_key: string;
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /** @example key_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            /**
             * Format: date-time
             * @description About when the key last authenticated a request: recorded at most once a minute per key, so it may lag by up to a minute; null if never used.
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly last_used_at: string | null;
            /** @example Zapier */
            name: string;
            /**
             * @description The first characters of the key, safe to show.
             * @example lh_AbCdEf
             */
            readonly prefix: string;
        };
        /** Delivery */
        Delivery: {
            /**
             * @description The activity sent: also the `webhook-id` header of every try.
             * @example act_01jdq3v3m5a8f0k2x9b7c6d4e1
             */
            readonly activity_id: string;
            /** @example first_message_sent */
            activity_label: string;
            /** @enum {string} */
            activity_type: "event" | "outcome";
            /** @description How many tries were made: the number of `attempts` listed. A redelivery keeps counting from there (its earlier tries stay listed). */
            attempt_count: number;
            attempts: {
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly attempted_at: string;
                /** @description Latency of the try. */
                duration_ms: number;
                /** @description What went wrong, when it did. */
                error: string | null;
                /** @example att_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                /**
                 * Format: date-time
                 * @description When the try after this one happened or is due; null when this try was the last.
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly next_attempt_at: string | null;
                /** @description The start of the subscriber's answer. */
                response_body: string | null;
                /** @description The subscriber's HTTP status; null when no answer came (timeout, refused). */
                status_code: number | null;
            }[];
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /** @example dlv_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly lead_id: string;
            /**
             * Format: date-time
             * @description When the next try is due while pending; null once succeeded or failed, and while queued (it goes once the delivery it waits for is done).
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly next_attempt_at: string | null;
            /**
             * @description `pending`: being tried, or due for its next try at next_attempt_at. `queued`: waits behind an earlier delivery of the same lead to the same subscription (named by waiting_for), so that a subscriber gets a lead's activities in order; it is sent once that one succeeds or finally fails. `succeeded`: a try got a 2xx. `failed`: every try of the retry schedule failed (redeliver sends it again).
             * @enum {string}
             */
            status: "pending" | "queued" | "succeeded" | "failed";
            /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly subscription_id: string;
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly updated_at: string;
            /**
             * @description While `queued`: the id of the delivery it waits behind (the earliest unfinished delivery of the same lead to the same subscription, the one being tried); null otherwise.
             * @example null
             * @example dlv_01jdq3v3m5a8f0k2x9b7c6d4e0
             */
            waiting_for: string | null;
        };
        /** DeliveryList */
        DeliveryList: {
            data: {
                /**
                 * @description The activity sent: also the `webhook-id` header of every try.
                 * @example act_01jdq3v3m5a8f0k2x9b7c6d4e1
                 */
                readonly activity_id: string;
                /** @example first_message_sent */
                activity_label: string;
                /** @enum {string} */
                activity_type: "event" | "outcome";
                /** @description How many tries were made: the number of `attempts` listed. A redelivery keeps counting from there (its earlier tries stay listed). */
                attempt_count: number;
                attempts: {
                    /**
                     * Format: date-time
                     * @example 2026-11-22T15:04:05.123Z
                     */
                    readonly attempted_at: string;
                    /** @description Latency of the try. */
                    duration_ms: number;
                    /** @description What went wrong, when it did. */
                    error: string | null;
                    /** @example att_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                    readonly id: string;
                    /**
                     * Format: date-time
                     * @description When the try after this one happened or is due; null when this try was the last.
                     * @example 2026-11-22T15:04:05.123Z
                     */
                    readonly next_attempt_at: string | null;
                    /** @description The start of the subscriber's answer. */
                    response_body: string | null;
                    /** @description The subscriber's HTTP status; null when no answer came (timeout, refused). */
                    status_code: number | null;
                }[];
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly created_at: string;
                /** @example dlv_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly lead_id: string;
                /**
                 * Format: date-time
                 * @description When the next try is due while pending; null once succeeded or failed, and while queued (it goes once the delivery it waits for is done).
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly next_attempt_at: string | null;
                /**
                 * @description `pending`: being tried, or due for its next try at next_attempt_at. `queued`: waits behind an earlier delivery of the same lead to the same subscription (named by waiting_for), so that a subscriber gets a lead's activities in order; it is sent once that one succeeds or finally fails. `succeeded`: a try got a 2xx. `failed`: every try of the retry schedule failed (redeliver sends it again).
                 * @enum {string}
                 */
                status: "pending" | "queued" | "succeeded" | "failed";
                /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly subscription_id: string;
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly updated_at: string;
                /**
                 * @description While `queued`: the id of the delivery it waits behind (the earliest unfinished delivery of the same lead to the same subscription, the one being tried); null otherwise.
                 * @example null
                 * @example dlv_01jdq3v3m5a8f0k2x9b7c6d4e0
                 */
                waiting_for: string | null;
            }[];
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** Error */
        Error: {
            error: {
                /**
                 * @description unauthorized | not_found | validation_failed | malformed_body | playbook_in_use | outcome_exists | unsupported_media_type | payload_too_large | service_unavailable | internal_error
                 * @example validation_failed
                 */
                code: string;
                details: {
                    /**
                     * @description required | invalid | too_long | unknown_field | read_only | unknown_placeholder | invalid_template | unknown_label | reserved_label | no_labels | private_target | not_found | …
                     * @example required
                     */
                    code: string;
                    /** @example steps[0].template */
                    field: string | null;
                    message: string;
                }[];
                message: string;
            };
        };
        /** Hook */
        Hook: {
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /** @description false after five days of failed deliveries (see GET /subscriptions/{id}). */
            enabled: boolean;
            events: string[];
            /** @example sub_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            outcomes: string[];
            /** @description The playbook whose activities are sent; null for every playbook of the account. */
            playbook_id: string | null;
            target_url: string;
        };
        /** HookCreate */
        HookCreate: {
            /**
             * @description Event labels of GET /activity_catalog, `["*"]` for every event, or `[]` for none. Events and outcomes together name at least one label.
             * @default []
             * @example [
             *       "message_received"
             *     ]
             */
            events: string[];
            /**
             * @description Outcome labels of GET /activity_catalog, `["*"]` for every outcome, or `[]` for none. Events and outcomes together name at least one label.
             * @default []
             * @example [
             *       "*"
             *     ]
             */
            outcomes: string[];
            /**
             * @description Only this playbook's activities; without it, every playbook of the account (account-wide).
             * @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1
             */
            playbook_id?: string;
            /**
             * Format: uri
             * @description An http(s) URL whose host is written as it is (no percent-escapes or numeric IPv4 shorthands, no missing host as in `http:///x`; else 422 `invalid`). A host that is a literal loopback, private, link-local, metadata or unspecified address, an IPv6 address outside global unicast 2000::/3, or `localhost`, is refused (422 `private_target`) unless the operator allows private targets; a name resolving to one is refused at delivery time.
             * @example https://crm.example.com/hooks/leadhook
             */
            target_url: string;
        };
        /** HookList */
        HookList: {
            data: {
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly created_at: string;
                /** @description false after five days of failed deliveries (see GET /subscriptions/{id}). */
                enabled: boolean;
                events: string[];
                /** @example sub_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                outcomes: string[];
                /** @description The playbook whose activities are sent; null for every playbook of the account. */
                playbook_id: string | null;
                target_url: string;
            }[];
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** HookSamples */
        HookSamples: {
            /** @description Webhook bodies exactly as deliveries carry them: the account's latest activities of the label, or one synthetic example when it has none. */
            data: {
                /**
                 * Format: date-time
                 * @description Equal to occurred_at.
                 */
                activity_created_at: string;
                /** @example first_message_sent */
                activity_label: string;
                /** @description A short human sentence. */
                activity_note: string;
                /** @description The enrollment (play) id, or null when the lead has none. */
                activity_play_id: string | null;
                /** @enum {string} */
                activity_type: "event" | "outcome";
                /** @description Label-specific details (e.g. `body`, `until`). */
                data: Record<string, never>;
                /** @description The activity id; also `webhook-id`. */
                id: string;
                /** @description The extra fields the seller sent with the lead, as sent. */
                lead_additional_info: Record<string, never>;
                /** Format: date-time */
                lead_created_at: string;
                lead_email: string;
                lead_first_name: string;
                lead_id: string;
                lead_last_name: string;
                lead_opted_out: boolean;
                /** @description leadhook itself (key: the lead id), then the marketing source at acceptance with the seller’s external_id, when one was sent. */
                lead_originators: {
                    key: string;
                    origin: string;
                }[];
                marketing_source: {
                    id: string;
                    name: string;
                };
                /** Format: date-time */
                occurred_at: string;
                playbook: {
                    id: string;
                    name: string;
                };
            }[];
        };
        /** HookWithSecret */
        HookWithSecret: {
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /** @description false after five days of failed deliveries (see GET /subscriptions/{id}). */
            enabled: boolean;
            events: string[];
            /** @example sub_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            outcomes: string[];
            /** @description The playbook whose activities are sent; null for every playbook of the account. */
            playbook_id: string | null;
            /** @description The Standard Webhooks signing secret of the deliveries to this hook, shown only here (verifying is optional for a platform that does not). */
            readonly secret: string;
            target_url: string;
        };
        /** IntakeAccepted */
        IntakeAccepted: {
            /** @example lead_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            lead_id: string;
            /** @constant */
            status: "accepted";
        };
        /** IntakeDuplicate */
        IntakeDuplicate: {
            /** @description The earlier lead with the same phone. */
            lead_id: string;
            /** @constant */
            status: "duplicate";
        };
        /** IntakeRejected */
        IntakeRejected: {
            errors: {
                /** @description required | invalid | too_long | too_many_fields | consent_unrecognised (fields; too_many_fields also for a body of more than 75 fields, field null; consent_unrecognised: a source that requires a recognised consent certificate got another tcpa_opt_in_token); malformed_body, not_found, idempotency_key_reused, body_too_large, unsupported_media_type, method_not_allowed, rate_limited, unavailable, internal_error (the whole request: field null, or the header concerned) */
                code: string;
                field: string | null;
                message: string;
            }[];
            /** @enum {string} */
            status: "rejected" | "error";
        };
        /** IntegrationInstructions */
        IntegrationInstructions: {
            content_types: ("application/json" | "application/x-www-form-urlencoded")[];
            examples: {
                curl_form: string;
                curl_json: string;
                html_form: string;
            };
            extra_fields: {
                accepted: boolean;
                description: string;
                max_fields: number;
                max_name_length: number;
                max_value_bytes: number;
            };
            fields: {
                description: string;
                example: string;
                format: string | null;
                max_length: number;
                name: string;
                required: boolean;
                /** @constant */
                type: "string";
            }[];
            headers: {
                description: string;
                name: string;
                required: boolean;
            }[];
            marketing_source_id: string;
            /** @constant */
            method: "POST";
            /** Format: uri */
            post_url: string;
            responses: {
                body: Record<string, never>;
                case: string;
                headers?: {
                    [key: string]: string;
                };
                status: number;
            }[];
        };
        /** Lead */
        Lead: {
            /** @description Trimmed, lower-cased gender, marital_status and credit_rating. */
            canonical: {
                [key: string]: string;
            };
            /** ConsentEvidence */
            consent: {
                /** @description The address the submission came from, as intake saw it. */
                ip: string | null;
                /**
                 * @description The lead-verification provider the token's shape showed when intake accepted the lead, kept with the lead: a TrustedForm certificate (its URL or 40-hex id) or a Jornaya LeadiD (a UUID); null when neither.
                 * @enum {string|null}
                 */
                provider: "trustedform" | "jornaya" | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly received_at: string;
                tcpa_opt_in_token: string;
                tcpa_opt_in_url: string;
                user_agent: string | null;
            };
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /** @description The seller's own id, when sent. */
            external_id: string | null;
            /** @description Fields the seller sent beyond the known ones, as sent. */
            extra: {
                [key: string]: string | number | boolean | null;
            };
            /** @description Every submission field as stored: trimmed; phone E.164, date_of_birth YYYY-MM-DD, state upper case; gender, marital_status and credit_rating as sent. */
            fields: {
                [key: string]: string;
            };
            /** @example lead_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            /** @description The source that sent the lead. */
            marketing_source: {
                /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                name: string;
            };
            opted_out: boolean;
            /** @description The terminal outcome label once reached (GET /activity_catalog). */
            outcome: string | null;
            /** @description The enrollment in the playbook; null until the lead is enrolled. */
            play: {
                /** @description Index of the next step to run (0-based); the playbook's step count when none is left. */
                current_step: number;
                /** @example play_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                /**
                 * Format: date-time
                 * @description When the next step is due; null when none is scheduled.
                 */
                next_run_at: string | null;
                /** @enum {string} */
                status: "active" | "completed" | "stopped";
            } | null;
            /** @description The playbook the lead was enrolled in. */
            playbook: {
                /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                name: string;
            };
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly updated_at: string;
        };
        /** LeadDetail */
        LeadDetail: {
            /** @description Every activity of the lead, oldest first. */
            activities: {
                /**
                 * @description A label of GET /activity_catalog.
                 * @example message_received
                 */
                activity_label: string;
                /** @description A short human sentence. */
                activity_note: string;
                /**
                 * @description event, or outcome (terminal: at most one per lead).
                 * @enum {string}
                 */
                activity_type: "event" | "outcome";
                /** @description Details of the activity, e.g. `body` for message_received. */
                data: Record<string, never>;
                /** @example act_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                /** @example lead_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly lead_id: string;
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly occurred_at: string;
            }[];
            /** @description Trimmed, lower-cased gender, marital_status and credit_rating. */
            canonical: {
                [key: string]: string;
            };
            /** ConsentEvidence */
            consent: {
                /** @description The address the submission came from, as intake saw it. */
                ip: string | null;
                /**
                 * @description The lead-verification provider the token's shape showed when intake accepted the lead, kept with the lead: a TrustedForm certificate (its URL or 40-hex id) or a Jornaya LeadiD (a UUID); null when neither.
                 * @enum {string|null}
                 */
                provider: "trustedform" | "jornaya" | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly received_at: string;
                tcpa_opt_in_token: string;
                tcpa_opt_in_url: string;
                user_agent: string | null;
            };
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /** @description Every duplicate submission attributed to this lead, oldest first. */
            duplicates: {
                /** @description The seller's own id, when sent. */
                external_id: string | null;
                /** @description The source that sent the duplicate. */
                marketing_source: {
                    /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                    readonly id: string;
                    name: string;
                };
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly received_at: string;
            }[];
            /** @description The seller's own id, when sent. */
            external_id: string | null;
            /** @description Fields the seller sent beyond the known ones, as sent. */
            extra: {
                [key: string]: string | number | boolean | null;
            };
            /** @description Every submission field as stored: trimmed; phone E.164, date_of_birth YYYY-MM-DD, state upper case; gender, marital_status and credit_rating as sent. */
            fields: {
                [key: string]: string;
            };
            /** @example lead_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            /** @description The source that sent the lead. */
            marketing_source: {
                /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                name: string;
            };
            opted_out: boolean;
            /** @description The terminal outcome label once reached (GET /activity_catalog). */
            outcome: string | null;
            /** @description The enrollment in the playbook; null until the lead is enrolled. */
            play: {
                /** @description Index of the next step to run (0-based); the playbook's step count when none is left. */
                current_step: number;
                /** @example play_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                /**
                 * Format: date-time
                 * @description When the next step is due; null when none is scheduled.
                 */
                next_run_at: string | null;
                /** @enum {string} */
                status: "active" | "completed" | "stopped";
            } | null;
            /** @description The playbook the lead was enrolled in. */
            playbook: {
                /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                name: string;
            };
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly updated_at: string;
        };
        /** LeadList */
        LeadList: {
            data: {
                /** @description Trimmed, lower-cased gender, marital_status and credit_rating. */
                canonical: {
                    [key: string]: string;
                };
                /** ConsentEvidence */
                consent: {
                    /** @description The address the submission came from, as intake saw it. */
                    ip: string | null;
                    /**
                     * @description The lead-verification provider the token's shape showed when intake accepted the lead, kept with the lead: a TrustedForm certificate (its URL or 40-hex id) or a Jornaya LeadiD (a UUID); null when neither.
                     * @enum {string|null}
                     */
                    provider: "trustedform" | "jornaya" | null;
                    /**
                     * Format: date-time
                     * @example 2026-11-22T15:04:05.123Z
                     */
                    readonly received_at: string;
                    tcpa_opt_in_token: string;
                    tcpa_opt_in_url: string;
                    user_agent: string | null;
                };
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly created_at: string;
                /** @description The seller's own id, when sent. */
                external_id: string | null;
                /** @description Fields the seller sent beyond the known ones, as sent. */
                extra: {
                    [key: string]: string | number | boolean | null;
                };
                /** @description Every submission field as stored: trimmed; phone E.164, date_of_birth YYYY-MM-DD, state upper case; gender, marital_status and credit_rating as sent. */
                fields: {
                    [key: string]: string;
                };
                /** @example lead_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                /** @description The source that sent the lead. */
                marketing_source: {
                    /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                    readonly id: string;
                    name: string;
                };
                opted_out: boolean;
                /** @description The terminal outcome label once reached (GET /activity_catalog). */
                outcome: string | null;
                /** @description The enrollment in the playbook; null until the lead is enrolled. */
                play: {
                    /** @description Index of the next step to run (0-based); the playbook's step count when none is left. */
                    current_step: number;
                    /** @example play_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                    readonly id: string;
                    /**
                     * Format: date-time
                     * @description When the next step is due; null when none is scheduled.
                     */
                    next_run_at: string | null;
                    /** @enum {string} */
                    status: "active" | "completed" | "stopped";
                } | null;
                /** @description The playbook the lead was enrolled in. */
                playbook: {
                    /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                    readonly id: string;
                    name: string;
                };
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly updated_at: string;
            }[];
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
        /**
         * Lead submission
         * @description The 16 fields are required and must not be blank: a value made only of whitespace or invisible characters (zero-width space, BOM, other format characters) is reported as required. Whitespace and invisible characters around a value are trimmed (gender, marital_status and credit_rating are also kept as sent). Fields not listed here are kept with the lead as its extra data.
         */
        LeadSubmission: {
            /**
             * @description Any non-blank text, stored as sent and as a lower-cased canonical value.
             * @example good
             * @example excellent
             */
            credit_rating: string;
            /**
             * @description The current insurance carrier.
             * @example Acme Mutual
             * @example Lone Star Insurance
             */
            current_insurance_carrier: string;
            /**
             * @description The current coverage.
             * @example 100/300/100
             * @example 50/100/50
             */
            current_insurance_coverage: string;
            /**
             * @description Street address.
             * @example 123 Main St
             * @example 456 Oak Ave Apt 2
             */
            current_residence_address: string;
            /**
             * @description City.
             * @example Austin
             * @example Round Rock
             */
            current_residence_city: string;
            /**
             * Format: us-state
             * @description Two-letter US state or territory code, any case (TX, tx, PR).
             * @example TX
             * @example tx
             */
            current_residence_state: string;
            /**
             * Format: us-zip
             * @description ZIP (5 digits) or ZIP+4 (12345-6789, or 9 digits without the dash). A JSON number is accepted; since spreadsheets drop leading zeros, a number of up to 5 digits is zero-padded to 5 (7030 becomes 07030) and one of 8 digits to a 9-digit ZIP+4.
             * @example 78701
             * @example 78664-1234
             */
            current_residence_zip: string;
            /**
             * Format: past-date
             * @description A real date in the past: YYYY-MM-DD (recommended) or MM/DD/YYYY. Stored as YYYY-MM-DD.
             * @example 1985-04-12
             * @example 07/23/1979
             */
            date_of_birth: string;
            /**
             * Format: email
             * @description An email address.
             * @example jane.doe@example.com
             * @example john.smith@example.com
             */
            email: string;
            /**
             * @description Optional: your own id for the lead, echoed in webhooks' lead_originators.
             * @example vendor-lead-88213
             * @example vendor-lead-88214
             */
            external_id?: string;
            /**
             * @description The lead's first name.
             * @example Jane
             * @example John
             */
            first_name: string;
            /**
             * @description Any non-blank text, stored as sent and as a lower-cased canonical value.
             * @example female
             * @example male
             */
            gender: string;
            /**
             * @description The lead's last name.
             * @example Doe
             * @example Smith
             */
            last_name: string;
            /**
             * @description Any non-blank text, stored as sent and as a lower-cased canonical value.
             * @example married
             * @example single
             */
            marital_status: string;
            /**
             * Format: phone
             * @description A dialable phone number. US/Canada numbers in any common notation (5125550147, (512) 555-0147, +1 512-555-0147); other countries with a leading + and the country code. A JSON number is accepted. Letters are refused, except an extension at the end (x12, ext 12, ext. 12, #12): it is kept with the lead as the extra field phone_extension, and the number is stored without it, as E.164.
             * @example +1 512-555-0147
             * @example (512) 555-0198
             */
            phone: string;
            /**
             * @description The consent token from your consent provider: a TrustedForm certificate URL or id, a Jornaya LeadiD token, or an equivalent token.
             * @example a1b2c3d4-e5f6-4789-abcd-ef0123456789
             * @example f9e8d7c6-b5a4-4321-9876-543210fedcba
             */
            tcpa_opt_in_token: string;
            /**
             * Format: http-url
             * @description The http(s) URL of the page where the lead gave consent.
             * @example https://quotes.example.com/auto?step=consent
             * @example https://quotes.example.com/home
             */
            tcpa_opt_in_url: string;
        } & {
            [key: string]: string | number | boolean | null;
        };
        /** MarketingSource */
        MarketingSource: {
            /**
             * @description What a lead's tcpa_opt_in_token must be: "any" non-blank token, or a "recognised" certificate (a TrustedForm certificate URL or 40-hex id, or a Jornaya LeadiD UUID); otherwise intake answers 422 consent_unrecognised.
             * @enum {string}
             */
            consent_required: "any" | "recognised";
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            name: string;
            playbook_id: string;
            /**
             * Format: uri
             * @description Where the seller POSTs leads. It embeds the secret intake key: share it only with this seller; rotate_url replaces it.
             * @example https://leads.example.com/marketing_sources/acc_01jd…/Xy3…
             */
            readonly post_url: string;
            /** @description Requests per second this source may send (bursts up to twice that); 0 = unlimited; null = the deployment default. */
            rate_limit: number | null;
            /**
             * Format: uri
             * @description An http(s) URL. A form-urlencoded submission is answered 303 to it (with ?error=<code> when rejected); JSON submissions always get JSON.
             * @example https://example.com/thanks
             */
            redirect_url: string | null;
            /** @enum {string} */
            source_type: "vendor" | "affiliate" | "web_form" | "campaign";
            /**
             * @description A paused source answers 404 to sellers, like an unknown one.
             * @enum {string}
             */
            status: "active" | "paused";
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly updated_at: string;
        };
        /** MarketingSourceCreate */
        MarketingSourceCreate: {
            /**
             * @description What a lead's tcpa_opt_in_token must be: "any" non-blank token, or a "recognised" certificate (a TrustedForm certificate URL or 40-hex id, or a Jornaya LeadiD UUID); otherwise intake answers 422 consent_unrecognised.
             * @default any
             * @enum {string}
             */
            consent_required: "any" | "recognised";
            name: string;
            /**
             * @description One of the account's playbooks (not deleted).
             * @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1
             */
            playbook_id: string;
            /** @description Requests per second this source may send (bursts up to twice that); 0 = unlimited; null = the deployment default. */
            rate_limit?: number | null;
            /**
             * Format: uri
             * @description An http(s) URL. A form-urlencoded submission is answered 303 to it (with ?error=<code> when rejected); JSON submissions always get JSON.
             * @example https://example.com/thanks
             */
            redirect_url?: string | null;
            /** @enum {string} */
            source_type: "vendor" | "affiliate" | "web_form" | "campaign";
            /**
             * @description A paused source answers 404 to sellers, like an unknown one.
             * @default active
             * @enum {string}
             */
            status: "active" | "paused";
        };
        /** MarketingSourceList */
        MarketingSourceList: {
            data: {
                /**
                 * @description What a lead's tcpa_opt_in_token must be: "any" non-blank token, or a "recognised" certificate (a TrustedForm certificate URL or 40-hex id, or a Jornaya LeadiD UUID); otherwise intake answers 422 consent_unrecognised.
                 * @enum {string}
                 */
                consent_required: "any" | "recognised";
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly created_at: string;
                /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                name: string;
                playbook_id: string;
                /**
                 * Format: uri
                 * @description Where the seller POSTs leads. It embeds the secret intake key: share it only with this seller; rotate_url replaces it.
                 * @example https://leads.example.com/marketing_sources/acc_01jd…/Xy3…
                 */
                readonly post_url: string;
                /** @description Requests per second this source may send (bursts up to twice that); 0 = unlimited; null = the deployment default. */
                rate_limit: number | null;
                /**
                 * Format: uri
                 * @description An http(s) URL. A form-urlencoded submission is answered 303 to it (with ?error=<code> when rejected); JSON submissions always get JSON.
                 * @example https://example.com/thanks
                 */
                redirect_url: string | null;
                /** @enum {string} */
                source_type: "vendor" | "affiliate" | "web_form" | "campaign";
                /**
                 * @description A paused source answers 404 to sellers, like an unknown one.
                 * @enum {string}
                 */
                status: "active" | "paused";
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly updated_at: string;
            }[];
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** MarketingSourceUpdate */
        MarketingSourceUpdate: {
            /**
             * @description What a lead's tcpa_opt_in_token must be: "any" non-blank token, or a "recognised" certificate (a TrustedForm certificate URL or 40-hex id, or a Jornaya LeadiD UUID); otherwise intake answers 422 consent_unrecognised.
             * @enum {string}
             */
            consent_required?: "any" | "recognised";
            name?: string;
            /**
             * @description One of the account's playbooks (not deleted).
             * @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1
             */
            playbook_id?: string;
            /** @description Requests per second this source may send (bursts up to twice that); 0 = unlimited; null = the deployment default. */
            rate_limit?: number | null;
            /**
             * Format: uri
             * @description An http(s) URL. A form-urlencoded submission is answered 303 to it (with ?error=<code> when rejected); JSON submissions always get JSON.
             * @example https://example.com/thanks
             */
            redirect_url?: string | null;
            /** @enum {string} */
            source_type?: "vendor" | "affiliate" | "web_form" | "campaign";
            /**
             * @description A paused source answers 404 to sellers, like an unknown one.
             * @enum {string}
             */
            status?: "active" | "paused";
        };
        /** OpenApiDocument */
        OpenApiDocument: {
            openapi: string;
        };
        /** Playbook */
        Playbook: {
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            name: string;
            /** @description Ordered steps; an empty list is valid (leads are worked by outside activities). */
            steps: {
                /**
                 * @description Seconds after the previous step (after enrollment for the first step).
                 * @example 0
                 * @example 300
                 */
                delay_seconds: number;
                /**
                 * @description The SMS text (required for sms) or the call script (optional for call). `{{name}}` inserts the lead's value (spaces inside the braces are allowed). The names are: `first_name`, `last_name`, `email`, `phone`, `current_insurance_carrier`, `current_insurance_coverage`, `current_residence_address`, `current_residence_city`, `current_residence_state`, `current_residence_zip`, `date_of_birth`, `gender`, `marital_status`, `credit_rating`, `tcpa_opt_in_token`, `tcpa_opt_in_url`, `external_id`. Any other name, an extra field the seller sent included, is refused with 422 `unknown_placeholder`, and a `{{` or `}}` that closes no placeholder with 422 `invalid_template`. A value the lead lacks (external_id when the seller sent none) renders empty. A play's first SMS ends with `Reply STOP to opt out.` (after a space) unless its text already contains `STOP` in capitals: carriers require the first message to a recipient to say how to opt out; count those 23 characters in a first SMS near a carrier's length limit (Twilio's is 1600).
                 * @example Hi {{first_name}}, thanks for your quote request!
                 */
                template?: string;
                /** @enum {string} */
                type: "sms" | "call";
            }[];
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly updated_at: string;
        };
        /** PlaybookCreate */
        PlaybookCreate: {
            name: string;
            /** @description Ordered steps; an empty list is valid (leads are worked by outside activities). */
            steps?: {
                /**
                 * @description Seconds after the previous step (after enrollment for the first step).
                 * @example 0
                 * @example 300
                 */
                delay_seconds: number;
                /**
                 * @description The SMS text (required for sms) or the call script (optional for call). `{{name}}` inserts the lead's value (spaces inside the braces are allowed). The names are: `first_name`, `last_name`, `email`, `phone`, `current_insurance_carrier`, `current_insurance_coverage`, `current_residence_address`, `current_residence_city`, `current_residence_state`, `current_residence_zip`, `date_of_birth`, `gender`, `marital_status`, `credit_rating`, `tcpa_opt_in_token`, `tcpa_opt_in_url`, `external_id`. Any other name, an extra field the seller sent included, is refused with 422 `unknown_placeholder`, and a `{{` or `}}` that closes no placeholder with 422 `invalid_template`. A value the lead lacks (external_id when the seller sent none) renders empty. A play's first SMS ends with `Reply STOP to opt out.` (after a space) unless its text already contains `STOP` in capitals: carriers require the first message to a recipient to say how to opt out; count those 23 characters in a first SMS near a carrier's length limit (Twilio's is 1600).
                 * @example Hi {{first_name}}, thanks for your quote request!
                 */
                template?: string;
                /** @enum {string} */
                type: "sms" | "call";
            }[];
        };
        /** PlaybookList */
        PlaybookList: {
            data: {
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly created_at: string;
                /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                name: string;
                /** @description Ordered steps; an empty list is valid (leads are worked by outside activities). */
                steps: {
                    /**
                     * @description Seconds after the previous step (after enrollment for the first step).
                     * @example 0
                     * @example 300
                     */
                    delay_seconds: number;
                    /**
                     * @description The SMS text (required for sms) or the call script (optional for call). `{{name}}` inserts the lead's value (spaces inside the braces are allowed). The names are: `first_name`, `last_name`, `email`, `phone`, `current_insurance_carrier`, `current_insurance_coverage`, `current_residence_address`, `current_residence_city`, `current_residence_state`, `current_residence_zip`, `date_of_birth`, `gender`, `marital_status`, `credit_rating`, `tcpa_opt_in_token`, `tcpa_opt_in_url`, `external_id`. Any other name, an extra field the seller sent included, is refused with 422 `unknown_placeholder`, and a `{{` or `}}` that closes no placeholder with 422 `invalid_template`. A value the lead lacks (external_id when the seller sent none) renders empty. A play's first SMS ends with `Reply STOP to opt out.` (after a space) unless its text already contains `STOP` in capitals: carriers require the first message to a recipient to say how to opt out; count those 23 characters in a first SMS near a carrier's length limit (Twilio's is 1600).
                     * @example Hi {{first_name}}, thanks for your quote request!
                     */
                    template?: string;
                    /** @enum {string} */
                    type: "sms" | "call";
                }[];
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly updated_at: string;
            }[];
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** PlaybookUpdate */
        PlaybookUpdate: {
            name?: string;
            /** @description Ordered steps; an empty list is valid (leads are worked by outside activities). */
            steps?: {
                /**
                 * @description Seconds after the previous step (after enrollment for the first step).
                 * @example 0
                 * @example 300
                 */
                delay_seconds: number;
                /**
                 * @description The SMS text (required for sms) or the call script (optional for call). `{{name}}` inserts the lead's value (spaces inside the braces are allowed). The names are: `first_name`, `last_name`, `email`, `phone`, `current_insurance_carrier`, `current_insurance_coverage`, `current_residence_address`, `current_residence_city`, `current_residence_state`, `current_residence_zip`, `date_of_birth`, `gender`, `marital_status`, `credit_rating`, `tcpa_opt_in_token`, `tcpa_opt_in_url`, `external_id`. Any other name, an extra field the seller sent included, is refused with 422 `unknown_placeholder`, and a `{{` or `}}` that closes no placeholder with 422 `invalid_template`. A value the lead lacks (external_id when the seller sent none) renders empty. A play's first SMS ends with `Reply STOP to opt out.` (after a space) unless its text already contains `STOP` in capitals: carriers require the first message to a recipient to say how to opt out; count those 23 characters in a first SMS near a carrier's length limit (Twilio's is 1600).
                 * @example Hi {{first_name}}, thanks for your quote request!
                 */
                template?: string;
                /** @enum {string} */
                type: "sms" | "call";
            }[];
        };
        /** SourceStats */
        SourceStats: {
            /** @description Submissions that created a lead, in the range. */
            accepted: number;
            /** @description One entry per UTC day of the range, oldest first, days without activity included (zeros): accepted, duplicate, rejected by reason and outcomes by label, as for the whole range. */
            by_day: {
                accepted: number;
                /** @example 2026-11-22 */
                date: string;
                duplicate: number;
                /**
                 * @description Every outcome label of the activity catalog, with the number of this source's leads whose outcome occurred in the period (0 when none).
                 * @example {
                 *       "qualified": 3,
                 *       "not_interested": 1,
                 *       "opted_out": 0
                 *     }
                 */
                outcomes: {
                    [key: string]: number;
                };
                rejected: {
                    /** @description One entry per (field, code); a submission with several reasons counts once in each. Ordered by count (descending), then field, then code. */
                    by_reason: {
                        /** @example invalid */
                        code: string;
                        count: number;
                        /**
                         * @description A lead field, or "" for a problem with a field of the seller's own (codes unknown_field and too_many_fields): its name is never kept.
                         * @example phone
                         */
                        field: string;
                    }[];
                    total: number;
                };
            }[];
            /** @description Submissions of a phone already among the account's recent leads. */
            duplicate: number;
            /**
             * @description Every outcome label of the activity catalog, with the number of this source's leads whose outcome occurred in the period (0 when none).
             * @example {
             *       "qualified": 3,
             *       "not_interested": 1,
             *       "opted_out": 0
             *     }
             */
            outcomes: {
                [key: string]: number;
            };
            rejected: {
                /** @description One entry per (field, code); a submission with several reasons counts once in each. Ordered by count (descending), then field, then code. */
                by_reason: {
                    /** @example invalid */
                    code: string;
                    count: number;
                    /**
                     * @description A lead field, or "" for a problem with a field of the seller's own (codes unknown_field and too_many_fields): its name is never kept.
                     * @example phone
                     */
                    field: string;
                }[];
                total: number;
            };
        };
        /** SourceStatsList */
        SourceStatsList: {
            data: {
                /** @description Submissions that created a lead, in the range. */
                accepted: number;
                /** @description Submissions of a phone already among the account's recent leads. */
                duplicate: number;
                /** @example src_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                id: string;
                /** @example Acme Leads */
                name: string;
                /**
                 * @description Every outcome label of the activity catalog, with the number of this source's leads whose outcome occurred in the period (0 when none).
                 * @example {
                 *       "qualified": 3,
                 *       "not_interested": 1,
                 *       "opted_out": 0
                 *     }
                 */
                outcomes: {
                    [key: string]: number;
                };
                /** @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                playbook_id: string;
                rejected: {
                    /** @description One entry per (field, code); a submission with several reasons counts once in each. Ordered by count (descending), then field, then code. */
                    by_reason: {
                        /** @example invalid */
                        code: string;
                        count: number;
                        /**
                         * @description A lead field, or "" for a problem with a field of the seller's own (codes unknown_field and too_many_fields): its name is never kept.
                         * @example phone
                         */
                        field: string;
                    }[];
                    total: number;
                };
                /** @enum {string} */
                source_type: "vendor" | "affiliate" | "web_form" | "campaign";
                /** @enum {string} */
                status: "active" | "paused";
            }[];
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** Subscription */
        Subscription: {
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /**
             * @description `hooks` for a REST hook (POST /hooks, which lists and deletes only those; a 410 Gone from its URL deletes it), `api` otherwise (a 410 Gone disables it).
             * @enum {string}
             */
            readonly created_via: "api" | "hooks";
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly disabled_at: string | null;
            /**
             * @description Why the subscription is disabled, as a code to branch on: `manual` (the account set enabled false), `gone` (its URL answered 410 Gone), `failing` (five days of failures); null while enabled. disabled_reason says it in words.
             * @enum {string|null}
             */
            readonly disabled_code: "manual" | "gone" | "failing" | null;
            /** @description Why the subscription is disabled: `manual` (the account set enabled false), or what the webhook worker saw (a 410 Gone, five days of failures); null while enabled. */
            readonly disabled_reason: string | null;
            enabled: boolean;
            events: string[];
            /**
             * Format: date-time
             * @description The first failure with no 2xx since; five days of it disables the subscription.
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly failing_since: string | null;
            /** @example sub_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            outcomes: string[];
            /**
             * @description The playbook whose activities are sent; null for every playbook of the account.
             * @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1
             */
            playbook_id: string | null;
            /**
             * Format: date-time
             * @description While a rotation is in progress, deliveries are also signed with the previous secret until then.
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly previous_secret_expires_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly updated_at: string;
            url: string;
        };
        /** SubscriptionCreate */
        SubscriptionCreate: {
            /**
             * @description false stops deliveries. Setting it back to true clears disabled_code, disabled_reason, disabled_at and failing_since.
             * @default true
             */
            enabled: boolean;
            /**
             * @description Event labels of GET /activity_catalog, `["*"]` for every event, or `[]` for none. Events and outcomes together name at least one label.
             * @default []
             * @example [
             *       "first_message_sent",
             *       "message_received"
             *     ]
             * @example [
             *       "*"
             *     ]
             */
            events: string[];
            /**
             * @description Outcome labels of GET /activity_catalog, `["*"]` for every outcome, or `[]` for none. Events and outcomes together name at least one label.
             * @default []
             * @example [
             *       "*"
             *     ]
             */
            outcomes: string[];
            /**
             * Format: uri
             * @description An http(s) URL whose host is written as it is (no percent-escapes or numeric IPv4 shorthands, no missing host as in `http:///x`; else 422 `invalid`). A host that is a literal loopback, private, link-local, metadata or unspecified address, an IPv6 address outside global unicast 2000::/3, or `localhost`, is refused (422 `private_target`) unless the operator allows private targets; a name resolving to one is refused at delivery time.
             * @example https://crm.example.com/hooks/leadhook
             */
            url: string;
        };
        /** SubscriptionList */
        SubscriptionList: {
            data: {
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly created_at: string;
                /**
                 * @description `hooks` for a REST hook (POST /hooks, which lists and deletes only those; a 410 Gone from its URL deletes it), `api` otherwise (a 410 Gone disables it).
                 * @enum {string}
                 */
                readonly created_via: "api" | "hooks";
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly disabled_at: string | null;
                /**
                 * @description Why the subscription is disabled, as a code to branch on: `manual` (the account set enabled false), `gone` (its URL answered 410 Gone), `failing` (five days of failures); null while enabled. disabled_reason says it in words.
                 * @enum {string|null}
                 */
                readonly disabled_code: "manual" | "gone" | "failing" | null;
                /** @description Why the subscription is disabled: `manual` (the account set enabled false), or what the webhook worker saw (a 410 Gone, five days of failures); null while enabled. */
                readonly disabled_reason: string | null;
                enabled: boolean;
                events: string[];
                /**
                 * Format: date-time
                 * @description The first failure with no 2xx since; five days of it disables the subscription.
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly failing_since: string | null;
                /** @example sub_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                outcomes: string[];
                /**
                 * @description The playbook whose activities are sent; null for every playbook of the account.
                 * @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1
                 */
                playbook_id: string | null;
                /**
                 * Format: date-time
                 * @description While a rotation is in progress, deliveries are also signed with the previous secret until then.
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly previous_secret_expires_at: string | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly updated_at: string;
                url: string;
            }[];
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** SubscriptionRecover */
        SubscriptionRecover: {
            /**
             * Format: date-time
             * @description Every failed delivery created at or after this instant is sent again.
             * @example 2026-11-20T00:00:00Z
             */
            since: string;
        };
        /** SubscriptionRecoverResult */
        SubscriptionRecoverResult: {
            /** @description How many failed deliveries were set to be sent again. */
            recovered: number;
        };
        /** SubscriptionTestResult */
        SubscriptionTestResult: {
            error: string | null;
            latency_ms: number;
            /** @description A 2xx within the timeout. */
            ok: boolean;
            /** @description The start of the subscriber's answer. */
            response_body: string | null;
            /** @description null when no answer came. */
            status_code: number | null;
        };
        /** SubscriptionUpdate */
        SubscriptionUpdate: {
            /** @description false stops deliveries. Setting it back to true clears disabled_code, disabled_reason, disabled_at and failing_since. */
            enabled?: boolean;
            /**
             * @description Event labels of GET /activity_catalog, `["*"]` for every event, or `[]` for none. Events and outcomes together name at least one label.
             * @example [
             *       "first_message_sent",
             *       "message_received"
             *     ]
             * @example [
             *       "*"
             *     ]
             */
            events?: string[];
            /**
             * @description Outcome labels of GET /activity_catalog, `["*"]` for every outcome, or `[]` for none. Events and outcomes together name at least one label.
             * @example [
             *       "*"
             *     ]
             */
            outcomes?: string[];
            /**
             * Format: uri
             * @description An http(s) URL whose host is written as it is (no percent-escapes or numeric IPv4 shorthands, no missing host as in `http:///x`; else 422 `invalid`). A host that is a literal loopback, private, link-local, metadata or unspecified address, an IPv6 address outside global unicast 2000::/3, or `localhost`, is refused (422 `private_target`) unless the operator allows private targets; a name resolving to one is refused at delivery time.
             * @example https://crm.example.com/hooks/leadhook
             */
            url?: string;
        };
        /** SubscriptionWithSecret */
        SubscriptionWithSecret: {
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /**
             * @description `hooks` for a REST hook (POST /hooks, which lists and deletes only those; a 410 Gone from its URL deletes it), `api` otherwise (a 410 Gone disables it).
             * @enum {string}
             */
            readonly created_via: "api" | "hooks";
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly disabled_at: string | null;
            /**
             * @description Why the subscription is disabled, as a code to branch on: `manual` (the account set enabled false), `gone` (its URL answered 410 Gone), `failing` (five days of failures); null while enabled. disabled_reason says it in words.
             * @enum {string|null}
             */
            readonly disabled_code: "manual" | "gone" | "failing" | null;
            /** @description Why the subscription is disabled: `manual` (the account set enabled false), or what the webhook worker saw (a 410 Gone, five days of failures); null while enabled. */
            readonly disabled_reason: string | null;
            enabled: boolean;
            events: string[];
            /**
             * Format: date-time
             * @description The first failure with no 2xx since; five days of it disables the subscription.
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly failing_since: string | null;
            /** @example sub_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            outcomes: string[];
            /**
             * @description The playbook whose activities are sent; null for every playbook of the account.
             * @example pb_01jdq3v3m5a8f0k2x9b7c6d4e1
             */
            playbook_id: string | null;
            /**
             * Format: date-time
             * @description While a rotation is in progress, deliveries are also signed with the previous secret until then.
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly previous_secret_expires_at: string | null;
            /**
             * @description The Standard Webhooks signing secret (`whsec_` + base64 key). Shown only in the answers of create and rotate_secret.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            readonly secret: string;
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly updated_at: string;
            url: string;
        };
        /** Suppression */
        Suppression: {
            /**
             * @description The STOP reply (opted_out).
             * @example act_01jdq3v3m5a8f0k2x9b7c6d4e1
             */
            activity_id: string | null;
            /**
             * @description The API key that added it by hand (manual, complaint) or imported it.
             * @example key_01jdq3v3m5a8f0k2x9b7c6d4e1
             */
            api_key_id: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly created_at: string;
            /**
             * @description The import that added it (imported).
             * @example imp_01jdq3v3m5a8f0k2x9b7c6d4e1
             */
            import_id: string | null;
            /**
             * @description The lead whose STOP reply added it (opted_out).
             * @example lead_01jdq3v3m5a8f0k2x9b7c6d4e1
             */
            lead_id: string | null;
            /** @description The note given when it was added by hand. */
            note: string | null;
            /**
             * @description E.164.
             * @example +15125550100
             */
            phone: string;
            /** @enum {string} */
            reason: "opted_out" | "manual" | "imported" | "complaint";
        };
        /** SuppressionCreate */
        SuppressionCreate: {
            /**
             * @description Free text kept with the entry (who asked, the ticket).
             * @example Called support on 2026-11-20, ticket 4812
             */
            note?: string;
            /**
             * @description A phone number in any notation intake accepts: US/Canada numbers as written, others with a leading `+`. Stored in E.164.
             * @example +15125550100
             * @example (512) 555-0100
             */
            phone: string;
            /**
             * @description `manual` (the default) or `complaint`. `opted_out` is set only by a STOP, `imported` only by an import.
             * @default manual
             * @enum {string}
             */
            reason: "manual" | "complaint";
        };
        /** SuppressionImport */
        SuppressionImport: {
            /** @description 1 to 10000 phones, each in any notation intake accepts. */
            phones: string[];
        };
        /** SuppressionImportResult */
        SuppressionImportResult: {
            /** @description Rows whose phone was already listed (its first entry is kept) or repeats an earlier row of the same import. */
            already_listed: number;
            /**
             * @description Carried by every entry this import added (`import_id`).
             * @example imp_01jdq3v3m5a8f0k2x9b7c6d4e1
             */
            readonly import_id: string;
            /** @description Phones added to the list by this import. */
            imported: number;
        };
        /** SuppressionList */
        SuppressionList: {
            data: {
                /**
                 * @description The STOP reply (opted_out).
                 * @example act_01jdq3v3m5a8f0k2x9b7c6d4e1
                 */
                activity_id: string | null;
                /**
                 * @description The API key that added it by hand (manual, complaint) or imported it.
                 * @example key_01jdq3v3m5a8f0k2x9b7c6d4e1
                 */
                api_key_id: string | null;
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly created_at: string;
                /**
                 * @description The import that added it (imported).
                 * @example imp_01jdq3v3m5a8f0k2x9b7c6d4e1
                 */
                import_id: string | null;
                /**
                 * @description The lead whose STOP reply added it (opted_out).
                 * @example lead_01jdq3v3m5a8f0k2x9b7c6d4e1
                 */
                lead_id: string | null;
                /** @description The note given when it was added by hand. */
                note: string | null;
                /**
                 * @description E.164.
                 * @example +15125550100
                 */
                phone: string;
                /** @enum {string} */
                reason: "opted_out" | "manual" | "imported" | "complaint";
            }[];
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
        /** SuppressionRemoval */
        SuppressionRemoval: {
            /** @example sprm_01jdq3v3m5a8f0k2x9b7c6d4e1 */
            readonly id: string;
            /**
             * Format: date-time
             * @description When the removed entry was added.
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly listed_at: string;
            /**
             * @description E.164.
             * @example +15125550100
             */
            phone: string;
            /**
             * @description The reason the removed entry had.
             * @enum {string}
             */
            reason: "opted_out" | "manual" | "imported" | "complaint";
            /**
             * Format: date-time
             * @example 2026-11-22T15:04:05.123Z
             */
            readonly removed_at: string;
            /**
             * @description The API key that removed it.
             * @example key_01jdq3v3m5a8f0k2x9b7c6d4e1
             */
            removed_by_api_key_id: string;
        };
        /** SuppressionRemovalList */
        SuppressionRemovalList: {
            data: {
                /** @example sprm_01jdq3v3m5a8f0k2x9b7c6d4e1 */
                readonly id: string;
                /**
                 * Format: date-time
                 * @description When the removed entry was added.
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly listed_at: string;
                /**
                 * @description E.164.
                 * @example +15125550100
                 */
                phone: string;
                /**
                 * @description The reason the removed entry had.
                 * @enum {string}
                 */
                reason: "opted_out" | "manual" | "imported" | "complaint";
                /**
                 * Format: date-time
                 * @example 2026-11-22T15:04:05.123Z
                 */
                readonly removed_at: string;
                /**
                 * @description The API key that removed it.
                 * @example key_01jdq3v3m5a8f0k2x9b7c6d4e1
                 */
                removed_by_api_key_id: string;
            }[];
            /** @description Pass as `cursor` to get the next page; null on the last page. */
            next_cursor: string | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountUpdate"];
            };
        };
        responses: {
            /** @description The updated account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                /** @description The previous page's next_cursor. */
                cursor?: string;
                /** @description Page size, 1–100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of API keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApiKeyCreate"];
            };
        };
        responses: {
            /** @description The new key (`api_key`, shown only here), its id, name and prefix. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyWithSecret"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description api_key_limit: the account already holds 50 active keys; revoke one first. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new key, shown only in this answer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyRotation"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getActivityCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The activity catalog. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActivityCatalog"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliver: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, pending again. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The HTML page. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiReferenceAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file (a script, a stylesheet or an image). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "text/css": string;
                    "text/javascript": string;
                };
            };
            /** @description not_found: no such file. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listHooks: {
        parameters: {
            query?: {
                /** @description The previous page's next_cursor. */
                cursor?: string;
                /** @description Page size, 1–100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of hooks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HookList"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    subscribeHook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["HookCreate"];
            };
        };
        responses: {
            /** @description The hook: its `id` is what DELETE /hooks/{id} takes. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HookWithSecret"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: the body does not fit the schema; `target_url`, `events` and `outcomes` follow the rules of POST /subscriptions (`unknown_label`, `no_labels`, `invalid`, `private_target`); `playbook_id` `not_found` when it names none of your live playbooks. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unsubscribeHook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the hook now answers 404. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    hookSamples: {
        parameters: {
            query: {
                /** @description A catalog label (GET /activity_catalog); an unknown one is a 422. */
                label: string;
                /** @description event or outcome, for a label that is both (`interested`); without it, either. */
                type?: "event" | "outcome";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The samples, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HookSamples"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: `label` missing, or `unknown_label` when it is not in the catalog (for `type`, when given). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listLeads: {
        parameters: {
            query?: {
                /** @description The previous page's next_cursor. */
                cursor?: string;
                /** @description Only leads with this email address, whatever its case (Jane@Example.com finds jane@example.com). */
                email?: string;
                /** @description Only leads the seller sent with this external_id (exact). */
                external_id?: string;
                /** @description Only leads received from this day (YYYY-MM-DD, from 00:00 UTC) or instant (ISO 8601 date-time) on: `consent.received_at`. No default: every lead since the account's first. */
                from?: string;
                /** @description Page size, 1–100. */
                limit?: number;
                /** @description Only the leads that reached this outcome (a label of the activity catalog). */
                outcome?: "qualified" | "unqualified" | "interested" | "not_interested" | "callback_requested" | "party_line_completed" | "opted_out" | "undeliverable" | "unreachable" | "do_not_contact";
                /** @description Only leads with this phone, in any notation intake takes ("(512) 555-0100", "512.555.0100", "+15125550100"): compared in E.164, as stored. A number that is not dialable is 422 `validation_failed`. */
                phone?: string;
                /** @description Only the leads of this marketing source (a deleted one too: its leads stay). An id that names no source of this account, another account's included, answers 404 `not_found`, like every read of another account's object. */
                source_id?: string;
                /** @description Only leads received up to this day (YYYY-MM-DD, inclusive: up to 24:00 UTC) or instant (ISO 8601 date-time, inclusive). Not before `from`. No default. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of leads. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeadList"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: source_id names no marketing source of this account (another account's, or none). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: outcome is not a catalog outcome label, phone is not a dialable number, from or to is not a real date or date-time, or from is after to (field from). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getLead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The lead; `activities` is its whole timeline, oldest first; `duplicates` the later submissions of the same phone attributed to it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeadDetail"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reportActivity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ActivityCreate"];
            };
        };
        responses: {
            /** @description The reported activity; `caused` lists what else it recorded ([] when nothing). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ActivityReport"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description outcome_exists: the lead already has an outcome (the message names it); at most one per lead. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: the body does not fit ActivityCreate, or activity_label is not a catalog label of that activity_type (details code unknown_label or type_mismatch; the message names the label and the allowed ones), or message_received lacks data.body. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMarketingSources: {
        parameters: {
            query?: {
                /** @description The previous page's next_cursor. */
                cursor?: string;
                /** @description Page size, 1–100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of marketing sources. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketingSourceList"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMarketingSource: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MarketingSourceCreate"];
            };
        };
        responses: {
            /** @description The new marketing source. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketingSource"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    openPostUrl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                account_id: string;
                source_key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The source's Integration Instructions, as an HTML page (Accept: text/html). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Not a live source (the same body as for a POST). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
            /** @description Any method but POST (code method_not_allowed). */
            405: {
                headers: {
                    /** @description POST */
                    Allow: "POST";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "rejected",
                     *       "errors": [
                     *         {
                     *           "field": null,
                     *           "code": "method_not_allowed",
                     *           "message": "Post leads to this URL with POST."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
        };
    };
    submitLead: {
        parameters: {
            query?: never;
            header?: {
                "Idempotency-Key"?: string;
            };
            path: {
                account_id: string;
                source_key: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LeadSubmission"];
                "application/x-www-form-urlencoded": components["schemas"]["LeadSubmission"];
            };
        };
        responses: {
            /** @description Duplicate: the same phone reached this account within its duplicate window (default 30 days); recorded for attribution, not enrolled again. lead_id is the earlier lead's. */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "duplicate",
                     *       "lead_id": "lead_01jdq2a0b1c2d3e4f5g6h7j8k9"
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeDuplicate"];
                };
            };
            /** @description Accepted: the lead is stored and will be enrolled in the playbook. The same Idempotency-Key again for this source within 24 h: the first response is replayed with the header Idempotent-Replayed: true; no new lead. */
            201: {
                headers: {
                    /** @description Present (true) when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "accepted",
                     *       "lead_id": "lead_01jdq3v3m5a8f0k2x9b7c6d4e1"
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeAccepted"];
                };
            };
            /** @description A form-urlencoded submission to a source with a redirect_url: accepted or duplicate, See Other to redirect_url; rejected, to redirect_url with ?error=<the first error's code>. */
            303: {
                headers: {
                    /** @description Present (true) when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    /** @description The source's redirect_url, with ?error=<code> when rejected. */
                    Location: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The body is empty, cannot be parsed, is not an object, or (sent as a form) is not a form. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "rejected",
                     *       "errors": [
                     *         {
                     *           "field": null,
                     *           "code": "malformed_body",
                     *           "message": "The body could not be parsed as a JSON object."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
            /** @description Unknown account, or an unknown, rotated, paused or deleted source: one identical body for all. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "rejected",
                     *       "errors": [
                     *         {
                     *           "field": null,
                     *           "code": "not_found",
                     *           "message": "There is no marketing source at this URL. Check the post URL you were given."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
            /** @description The same Idempotency-Key with another body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "rejected",
                     *       "errors": [
                     *         {
                     *           "field": "Idempotency-Key",
                     *           "code": "idempotency_key_reused",
                     *           "message": "This Idempotency-Key was already used with a different body. Use a new key for a new lead."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
            /** @description The body is over the size limit (64 KiB by default), or has more than 75 fields (too_many_fields). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "rejected",
                     *       "errors": [
                     *         {
                     *           "field": null,
                     *           "code": "body_too_large",
                     *           "message": "The body is over the 65536-byte limit."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
            /** @description A content type other than application/json or application/x-www-form-urlencoded, or a charset other than UTF-8. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "rejected",
                     *       "errors": [
                     *         {
                     *           "field": null,
                     *           "code": "unsupported_media_type",
                     *           "message": "Send the lead as application/json or application/x-www-form-urlencoded."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
            /** @description Any field missing, blank or invalid: every problem is listed, not only the first. */
            422: {
                headers: {
                    /** @description Present (true) when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "rejected",
                     *       "errors": [
                     *         {
                     *           "field": "email",
                     *           "code": "invalid",
                     *           "message": "must be an email address, like jane.doe@example.com"
                     *         },
                     *         {
                     *           "field": "phone",
                     *           "code": "required",
                     *           "message": "is required"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
            /** @description Over the source's rate limit: retry after the number of seconds in Retry-After. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "error",
                     *       "errors": [
                     *         {
                     *           "field": null,
                     *           "code": "rate_limited",
                     *           "message": "Too many requests for this source. Retry after the delay in Retry-After."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
            /** @description An unexpected error on our side (code internal_error). Retry later, with the same Idempotency-Key if you sent one. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "error",
                     *       "errors": [
                     *         {
                     *           "field": null,
                     *           "code": "internal_error",
                     *           "message": "Something went wrong on our side."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
            /** @description The service cannot store the lead right now; nothing was stored: retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "error",
                     *       "errors": [
                     *         {
                     *           "field": null,
                     *           "code": "unavailable",
                     *           "message": "The lead could not be stored right now. Nothing was kept; retry it."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
        };
    };
    getMarketingSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The marketing source. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketingSource"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteMarketingSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the marketing source now answers 404. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateMarketingSource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MarketingSourceUpdate"];
            };
        };
        responses: {
            /** @description The updated marketing source. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketingSource"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIntegrationInstructions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The exact URL, every field, the responses and ready-to-paste examples. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntegrationInstructions"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMarketingSourceLead: {
        parameters: {
            query?: never;
            header?: {
                /** @description Any 1 to 255 printable ASCII characters: the same key for this source within 24 h answers the first answer again (Idempotent-Replayed: true), and no second lead is stored. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LeadSubmission"];
            };
        };
        responses: {
            /** @description Duplicate: the same phone reached this account within its duplicate window (default 30 days); recorded for attribution, not enrolled again. lead_id is the earlier lead's. */
            200: {
                headers: {
                    /** @description Present (true) when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "duplicate",
                     *       "lead_id": "lead_01jdq2a0b1c2d3e4f5g6h7j8k9"
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeDuplicate"];
                };
            };
            /** @description Accepted: the lead is stored and will be enrolled in the playbook. The same Idempotency-Key again for this source within 24 h: the first response is replayed with the header Idempotent-Replayed: true; no new lead. */
            201: {
                headers: {
                    /** @description Present (true) when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "accepted",
                     *       "lead_id": "lead_01jdq3v3m5a8f0k2x9b7c6d4e1"
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeAccepted"];
                };
            };
            /** @description malformed_body: the body is not a JSON object; invalid_idempotency_key: the Idempotency-Key header is not 1 to 255 printable ASCII characters. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such marketing source in this account (another account's, deleted), or a paused source. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The same Idempotency-Key with another body. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "rejected",
                     *       "errors": [
                     *         {
                     *           "field": "Idempotency-Key",
                     *           "code": "idempotency_key_reused",
                     *           "message": "This Idempotency-Key was already used with a different body. Use a new key for a new lead."
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB; too_many_fields: it has more than 75 fields. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any field missing, blank or invalid: every problem is listed, not only the first. */
            422: {
                headers: {
                    /** @description Present (true) when this is the stored answer to an earlier request with the same Idempotency-Key. */
                    "Idempotent-Replayed"?: "true";
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "rejected",
                     *       "errors": [
                     *         {
                     *           "field": "email",
                     *           "code": "invalid",
                     *           "message": "must be an email address, like jane.doe@example.com"
                     *         },
                     *         {
                     *           "field": "phone",
                     *           "code": "required",
                     *           "message": "is required"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["IntakeRejected"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate, or over the source's own rate (its rate_limit, shared with its post URL); retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateMarketingSourceUrl: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The source with its new post_url. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketingSource"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMarketingSourceStats: {
        parameters: {
            query?: {
                /** @description First day (YYYY-MM-DD, from 00:00 UTC) or instant (ISO 8601 date-time) counted. Default: 29 days before `to`, so the range is 30 UTC days. */
                from?: string;
                /** @description Last day (YYYY-MM-DD, inclusive: up to 24:00 UTC) or instant (ISO 8601 date-time, inclusive) counted. Default: now. At most 366 days after `from`; not before it. */
                to?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The source's performance. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceStats"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: from or to is not a real date or date-time (code invalid), from is after to (field from, code invalid), or the range is over 366 days (field from, code too_long). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPlaybooks: {
        parameters: {
            query?: {
                /** @description The previous page's next_cursor. */
                cursor?: string;
                /** @description Page size, 1–100. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of playbooks. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlaybookList"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPlaybook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlaybookCreate"];
            };
        };
        responses: {
            /** @description The new playbook. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Playbook"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPlaybook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The playbook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Playbook"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deletePlaybook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the playbook now answers 404. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description playbook_in_use: a marketing source still uses the playbook. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updatePlaybook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlaybookUpdate"];
            };
        };
        responses: {
            /** @description The updated playbook. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Playbook"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPlaybookSubscriptions: {
        parameters: {
            query?: {
                /** @description The previous page's next_cursor. */
                cursor?: string;
                /** @description Page size, 1–100. */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of subscriptions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionList"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPlaybookSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionCreate"];
            };
        };
        responses: {
            /** @description The new subscription with its signing secret (shown only here). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionWithSecret"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: the body does not fit the schema, or (details codes) `unknown_label` names a label that is not in the catalog for its list, `no_labels` when events and outcomes are both empty, `invalid` for "*" with other labels, a URL that is not http(s) or whose host is not written as it parses, `private_target` for a literal loopback/private/link-local/metadata host, an IPv6 address outside 2000::/3, or localhost (unless the operator allows private targets). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMarketingSourceStats: {
        parameters: {
            query?: {
                /** @description The previous page's next_cursor. */
                cursor?: string;
                /** @description First day (YYYY-MM-DD, from 00:00 UTC) or instant (ISO 8601 date-time) counted. Default: 29 days before `to`, so the range is 30 UTC days. */
                from?: string;
                /** @description Sources per answer, 1–1000, default 1000: an account's every source in one answer. */
                limit?: number;
                /** @description Last day (YYYY-MM-DD, inclusive: up to 24:00 UTC) or instant (ISO 8601 date-time, inclusive) counted. Default: now. At most 366 days after `from`; not before it. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account's sources and their figures. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SourceStatsList"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: from or to is not a real date or date-time (code invalid), from is after to (field from, code invalid), the range is over 366 days (field from, code too_long), or limit is not 1–1000. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSubscriptions: {
        parameters: {
            query?: {
                /** @description The previous page's next_cursor. */
                cursor?: string;
                /** @description Page size, 1–100. */
                limit?: number;
                /** @description `all` (the default): account-wide and per-playbook subscriptions alike; `account`: only the account-wide ones (`playbook_id` null, REST hooks included). */
                scope?: "all" | "account";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of subscriptions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionList"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createAccountSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionCreate"];
            };
        };
        responses: {
            /** @description The new subscription with its signing secret (shown only here). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionWithSecret"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: the body does not fit the schema, or (details codes) `unknown_label` names a label that is not in the catalog for its list, `no_labels` when events and outcomes are both empty, `invalid` for "*" with other labels, a URL that is not http(s) or whose host is not written as it parses, `private_target` for a literal loopback/private/link-local/metadata host, an IPv6 address outside 2000::/3, or localhost (unless the operator allows private targets). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; the subscription now answers 404. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionUpdate"];
            };
        };
        responses: {
            /** @description The updated subscription. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: the body does not fit the schema, or (details codes) `unknown_label` names a label that is not in the catalog for its list, `no_labels` when events and outcomes are both empty, `invalid` for "*" with other labels, a URL that is not http(s) or whose host is not written as it parses, `private_target` for a literal loopback/private/link-local/metadata host, an IPv6 address outside 2000::/3, or localhost (unless the operator allows private targets). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDeliveries: {
        parameters: {
            query?: {
                /** @description The previous page's next_cursor. */
                cursor?: string;
                /** @description Only deliveries created from this day (YYYY-MM-DD, from 00:00 UTC) or instant (ISO 8601 date-time) on: `created_at`. No default: every delivery kept. */
                from?: string;
                /** @description Page size, 1–100. */
                limit?: number;
                /** @description Only the deliveries in this status. `pending`: being tried, or due for its next try at next_attempt_at. `queued`: waits behind an earlier delivery of the same lead to the same subscription (named by waiting_for), so that a subscriber gets a lead's activities in order; it is sent once that one succeeds or finally fails. `succeeded`: a try got a 2xx. `failed`: every try of the retry schedule failed (redeliver sends it again). */
                status?: "pending" | "queued" | "succeeded" | "failed";
                /** @description Only deliveries created up to this day (YYYY-MM-DD, inclusive: up to 24:00 UTC) or instant (ISO 8601 date-time, inclusive). Not before `from`. No default. */
                to?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryList"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: status is not a delivery status, from or to is not a real date or date-time, or from is after to (field from). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recoverDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionRecover"];
            };
        };
        responses: {
            /** @description How many failed deliveries were reset. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionRecoverResult"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateSubscriptionSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription with its new secret (shown only here) and previous_secret_expires_at. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionWithSecret"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscriber's status code, latency, error and the start of its answer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionTestResult"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: no such object here. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSuppressions: {
        parameters: {
            query?: {
                /** @description The previous page's next_cursor (the last phone it showed). */
                cursor?: string;
                /** @description Only the entries this import added (its answer's import_id). */
                import_id?: string;
                /** @description Page size, 1–100. */
                limit?: number;
                /** @description Only the entries with this reason. */
                reason?: "opted_out" | "manual" | "imported" | "complaint";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of entries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuppressionList"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: every problem is listed in details. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSuppression: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SuppressionCreate"];
            };
        };
        responses: {
            /** @description The phone was already listed: its first entry, unchanged. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Suppression"];
                };
            };
            /** @description The new entry. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Suppression"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 256 KiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: the body does not fit the schema, or `phone` (code `invalid`) is not a dialable number. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSuppression: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                phone: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entry. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Suppression"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the phone is not on the list. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed (details code `invalid`, field `phone`): the path does not name a dialable phone number. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSuppression: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                phone: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed; the phone now answers 404. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the phone is not on the list. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed (details code `invalid`, field `phone`): the path does not name a dialable phone number. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    importSuppressions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SuppressionImport"] | components["schemas"]["SuppressionImport"]["phones"];
                "text/csv": string;
            };
        };
        responses: {
            /** @description How many phones were added and how many were already listed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuppressionImportResult"];
                };
            };
            /** @description malformed_body: the body is not a JSON object. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payload_too_large: the body is over 1 MiB. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unsupported_media_type: a body that is not application/json or text/csv (or an unsupported encoding). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: a bad row (each listed with its row or line number, code `invalid`), no rows (`required`), or more than 10,000 (`too_many_rows`); nothing was stored. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSuppressionRemovals: {
        parameters: {
            query?: {
                /** @description The previous page's next_cursor. */
                cursor?: string;
                /** @description Page size, 1–100. */
                limit?: number;
                /** @description Only the removals of this phone (any notation intake accepts). */
                phone?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of removals. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuppressionRemovalList"];
                };
            };
            /** @description unauthorized: missing, wrong or revoked API key. */
            401: {
                headers: {
                    /** @description Bearer */
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description validation_failed: the query does not fit the schema, or `phone` (code `invalid`) is not a dialable number. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited: over the per-address or per-API-key request rate; retry after Retry-After seconds. */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description service_unavailable: the database cannot be reached; retry. */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again. */
                    "Retry-After": number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
