/** OpenAPI entries of the calls outside the resource layer (accounts, config, keys, add-ons). */
const err = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const ok = (description: string) => ({ description });
const form = (fields: string[]) => ({
  content: {
    'application/json': {
      schema: { type: 'object', properties: Object.fromEntries(fields.map((f) => [f, { type: 'string' }])) },
    },
    'application/x-www-form-urlencoded': {
      schema: { type: 'object', properties: Object.fromEntries(fields.map((f) => [f, { type: 'string' }])) },
    },
  },
});

export const CORE_OPENAPI_PATHS: Record<string, unknown> = {
  '/accounts/login/': {
    post: {
      tags: ['accounts'],
      summary: 'Log in; sets a new session and CSRF token',
      requestBody: form(['username', 'password']),
      responses: { 200: ok('Logged in'), 400: err, 403: err, 429: err },
    },
  },
  '/accounts/logout/': {
    get: {
      tags: ['accounts'],
      summary: 'Log out and redirect to the login page (full page load)',
      responses: { 302: ok('To the login page') },
    },
    post: { tags: ['accounts'], summary: 'Log out', responses: { 200: ok('Logged out') } },
  },
  '/accounts/password/': {
    post: {
      tags: ['accounts'],
      summary: 'Change the password; closes the other sessions',
      requestBody: form(['old_password', 'new_password1', 'new_password2']),
      responses: { 200: ok('Changed'), 400: err, 401: err },
    },
  },
  '/accounts/send-invite/': {
    post: {
      tags: ['accounts'],
      summary:
        'Invite a new user (no password, never logged in) by e-mail: a one-time link to set the password and become active ' +
        '(superusers; fields email, optional user and language de|en; 503 mail_not_configured without SMTP; decision 0041)',
      requestBody: form(['email', 'user', 'language']),
      responses: { 200: ok('Invitation sent'), 400: err, 403: err, 429: err, 502: err, 503: err },
    },
  },
  '/accounts/password-reset/': {
    post: {
      tags: ['accounts'],
      summary: 'Ask for a password-reset link by e-mail; the same reply whether or not the address is known',
      requestBody: form(['email', 'language']),
      responses: { 200: ok('Requested'), 400: err, 429: err, 503: err },
    },
  },
  '/accounts/link/': {
    post: {
      tags: ['accounts'],
      summary: 'Whom a one-time link (token) is for: purpose invite|reset, username, display_name, expires',
      requestBody: form(['token']),
      responses: { 200: ok('Link'), 400: err },
    },
  },
  '/accounts/set-password/': {
    post: {
      tags: ['accounts'],
      summary: 'Use a one-time link: set the password (an invited user becomes active); ends the other sessions',
      requestBody: form(['token', 'new_password1', 'new_password2']),
      responses: { 200: ok('Password set'), 400: err },
    },
  },
  '/api/v2/backend/profile': {
    get: { tags: ['accounts'], summary: 'The caller', responses: { 200: ok('Profile'), 401: err } },
    patch: {
      tags: ['accounts'],
      summary: 'Remember the language (de, en)',
      requestBody: form(['language']),
      responses: { 200: ok('Saved'), 400: err },
    },
  },
  '/api/v2/backend/config': {
    get: {
      tags: ['config'],
      summary: 'Configuration, the caller and the component switches',
      security: [],
      responses: { 200: ok('Configuration') },
    },
  },
  '/api/v2/backend/map-imagery': {
    get: {
      tags: ['config'],
      summary:
        'Relay of the map for WMS/WMTS imagery of other origins (decision 0067): fetches the absolute address `url` ' +
        "through the server's URL guard and answers with the image; 502 imagery_not_image for anything but an image",
      parameters: [{ name: 'url', in: 'query', required: true, schema: { type: 'string' } }],
      responses: {
        200: { description: 'The image', content: { 'image/*': {} } },
        400: err,
        401: err,
        413: err,
        502: err,
        504: err,
      },
    },
  },
  '/api/v2/backend/permissions': {
    get: { tags: ['accounts'], summary: 'Named permissions that can be granted', responses: { 200: ok('List') } },
  },
  '/api/v2/backend/users/{id}/impersonate': {
    post: {
      tags: ['accounts'],
      summary: 'Superusers: act as this user (never another superuser); a new session id',
      responses: { 200: ok('Done'), 400: err, 403: err, 404: err },
    },
  },
  '/api/v2/backend/impersonate/stop': {
    post: {
      tags: ['accounts'],
      summary: 'Stop acting as another user; a new session id',
      responses: { 200: ok('Done'), 400: err },
    },
  },
  '/api/v2/analytics/api-calls': {
    get: {
      tags: ['analytics'],
      summary:
        'Superusers, api_stats component: API call statistics of ?user={userUri}: month, path template, status_code, count, p50_duration_ms and p95_duration_ms (within 1 %)',
      responses: { 200: ok('List'), 400: err, 403: err, 404: err },
    },
  },
  '/api/v2/backend/about': {
    get: {
      tags: ['addon'],
      summary:
        'Version, installed plugins with their licences, licensed components, third-party licences of the production dependencies',
      responses: { 200: ok('About') },
    },
  },
  '/api/v2/backend/realms': {
    get: {
      tags: ['apikey'],
      summary: "Realms an API key may be limited to ('*' is every realm)",
      responses: { 200: ok('List') },
    },
  },
  '/api/v1/apikey/': {
    get: {
      tags: ['apikey'],
      summary:
        'API keys (superusers), newest first; ?user= filters; offset and limit page, or after= (the cursor of meta.next); count=false skips total_count',
      responses: { 200: ok('List'), 403: err },
    },
    post: {
      tags: ['apikey'],
      summary: 'Create a key for a user with realms; the key is in this reply only',
      requestBody: {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                user: { type: 'string' },
                realms: { type: 'array', items: { type: 'string' } },
                expiration: { type: 'string', format: 'date-time' },
              },
            },
          },
        },
      },
      responses: { 201: ok('Created'), 400: err, 403: err },
    },
  },
  '/api/v1/apikey/{key}/': {
    parameters: [{ name: 'key', in: 'path', required: true, schema: { type: 'string' }, description: 'The key or its prefix' }],
    get: { tags: ['apikey'], summary: 'One key (without its secret)', responses: { 200: ok('Key'), 404: err } },
    delete: { tags: ['apikey'], summary: 'Delete; the key stops working at once', responses: { 204: ok('Deleted'), 404: err } },
  },
  '/api/v1/addon/': {
    get: { tags: ['addon'], summary: 'Installed plugins and licensed components', responses: { 200: ok('List') } },
  },
  '/api/v1/addon/licence/': {
    post: {
      tags: ['addon'],
      summary: 'Install a signed licence (superusers)',
      responses: { 201: ok('Installed'), 400: err, 403: err },
    },
  },
  '/api/v1/addon/{name}/': {
    parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
    get: { tags: ['addon'], summary: 'One licensed component', responses: { 200: ok('Component'), 404: err } },
  },
  '/api/v1/addon/plugins/{id}/': {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    get: { tags: ['addon'], summary: 'One installed plugin', responses: { 200: ok('Plugin'), 404: err } },
  },
  '/api/v1/addon/{name}/inform/': {
    parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
    get: {
      tags: ['addon'],
      summary: 'Register interest in an add-on (state-changing GET: needs the X-CSRFToken header)',
      'x-changes-state': true,
      responses: { 200: ok('Registered'), 404: err },
    },
    post: { tags: ['addon'], summary: 'Register interest in an add-on', responses: { 200: ok('Registered'), 404: err } },
  },
};
