/**
 * Whether WebGL is drawn on the CPU: a browser without a usable GPU (a virtual desktop, a remote
 * session, a blocked driver) falls back to a software rasteriser such as SwiftShader or llvmpipe.
 */
export function isSoftwareRenderer(renderer: string): boolean {
  return /swiftshader|llvmpipe|softpipe|software|basic render driver/i.test(renderer);
}

let samples: number | undefined;

/**
 * The multisampling for Cesium's globe: Cesium's default of 4 where a GPU draws, none where WebGL is
 * drawn in software — there every sample is paid on the CPU (a globe's tiles settle in about half the
 * time without it), and edges without smoothing are the lesser loss. Asked once per page.
 */
export function globeMsaaSamples(): number {
  if (samples !== undefined) return samples;
  let renderer: string;
  try {
    const gl = document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl');
    const info = gl?.getExtension('WEBGL_debug_renderer_info');
    renderer = gl ? String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER)) : '';
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
  } catch {
    renderer = '';
  }
  samples = isSoftwareRenderer(renderer) ? 1 : 4;
  return samples;
}
