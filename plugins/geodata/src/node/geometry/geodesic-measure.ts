/** The geodesic measures live in the SDK (one rule for the geometry functions and the viewer's measure tool). */
export { geodesicArea, geodesicLength, pathLength, ringArea } from '@werkbank/sdk';
