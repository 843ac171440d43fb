import assert from 'node:assert/strict';
import { isSoftwareRenderer } from './renderer';

describe('the WebGL renderer', () => {
  it('counts the software rasterisers of Chromium, Mesa and Windows as software', () => {
    for (const r of [
      'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
      'llvmpipe (LLVM 15.0.6, 256 bits)',
      'Mesa softpipe',
      'ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11)',
      'Google SwiftShader',
    ])
      assert.equal(isSoftwareRenderer(r), true, r);
  });

  it('counts graphics cards as hardware', () => {
    for (const r of [
      'ANGLE (Intel, Intel(R) UHD Graphics 620 Direct3D11 vs_5_0 ps_5_0, D3D11)',
      'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 (0x00002503) Direct3D11 vs_5_0 ps_5_0, D3D11)',
      'Apple M1',
      'Mesa Intel(R) Xe Graphics (TGL GT2)',
      'WebKit WebGL',
    ])
      assert.equal(isSoftwareRenderer(r), false, r);
  });
});
