/** OpenAPI entries of the switchboard calls outside the resource layer (docs/api.md has the details), one per route contribution. */
const op = (summary: string) => ({ summary });

/** ExecutionRoutes: running, aborting and polling executions; node runs and replays. */
export const executionOpenApi: Record<string, unknown> = {
  '/api/v2/switchboard/nodes/{id}/runs/': {
    get: op('Runs of a node, newest first; limit=1 gives the latest (component node_runs).'),
  },
  '/api/v1/noderun/{id}/': { get: op('One node run with its log, parameters, input and output hashes and lineage.') },
  '/api/v1/noderun/{id}/replay/': { post: op('Re-runs the node against exactly the inputs of this run (execute permission).') },
  '/api/v1/execution/{id}/': {
    get: op('An execution to poll: status, stage, progress, node runs, and the results of output frames.'),
  },
  '/api/v1/switchboard/{id}/run/': {
    post: op(
      'Runs the switchboard, or one node (node) and with from_here everything downstream; force runs unchanged nodes too. 202.',
    ),
  },
  '/api/v1/node/{id}/run/': { post: op('Runs this node (from_here: and everything downstream; force). 202.') },
  '/api/v1/switchboard/{id}/abort/': { post: op('Stops the running execution.') },
  '/api/v1/node/{id}/abort/': { post: op('Stops the execution the node belongs to.') },
  '/api/v1/switchboard/{id}/execute/': {
    post: op(
      'Runs the switchboard as a workflow: {inputs: {<input frame name>: [items]}}; returns the execution to poll. API key or session.',
    ),
  },
  '/api/v1/workflow/{id}/execute/': { post: op("Runs the workflow's switchboard with input values (execute_workflow). 202.") },
};

/** CanvasRoutes: creating, reloading, exporting, importing and duplicating switchboards. */
export const canvasOpenApi: Record<string, unknown> = {
  '/api/v2/switchboard/create/': {
    get: {
      ...op(
        'Creates a switchboard: name, folder_uri, tags (comma separated); template (a layer template datum) or template_layer (a layer) starts it with a frame holding the template. Returns resource_uri, switchboard_id, name (and frame). State-changing GET: needs the CSRF header.',
      ),
      'x-changes-state': true,
    },
    post: op(
      'Creates a switchboard from the same fields (also template or template_layer), given in the query or as a JSON body.',
    ),
  },
  '/api/v2/switchboard/create/datum/': {
    get: {
      ...op(
        'Creates a switchboard holding a frame with the datum (datum=address); search= is handed back for the function browser. State-changing GET: needs the CSRF header.',
      ),
      'x-changes-state': true,
    },
    post: op('The same from datum and search given in the query or as a JSON body.'),
  },
  '/api/v1/switchboard/{id}/reload/': { get: op('The whole canvas: switchboard, nodes, frames, links, notes.') },
  '/api/v1/switchboard/{id}/export/': {
    get: op('"Save as file": the switchboard as a JSON file (format werkbank-switchboard, version 1).'),
  },
  '/api/v1/switchboard/import/': {
    post: op('Creates a switchboard from an exported file ({file, name?, folder?} or the file itself). 201.'),
  },
  '/api/v1/switchboard/{id}/duplicate/': {
    post: op('Copies the switchboard with its nodes, frames (with data), links and notes ({name?}). 201.'),
  },
};

/** FrameContentRoutes: a frame's items, and datums created in a frame. */
export const frameContentOpenApi: Record<string, unknown> = {
  '/api/v1/frame/{id}/content/': { get: op("A frame's items, paged (offset, limit ≤ 1000).") },
  '/api/v1/switchboard/{id}/map/': {
    get: op(
      "The preview's map: the frames visible on the map (feature and bbox types with their first 10,000 items as GeoJSON features, id = item index; wms and wmts types as imagery), and whether each is edited in the map.",
    ),
  },
  '/api/v1/datum/create-in-frame/{id}/': {
    get: op("A template datum of the frame's type."),
    post: op('Appends a datum (or {objects: [...]}) to the frame. 201.'),
  },
};
