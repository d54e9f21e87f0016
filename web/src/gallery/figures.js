// The figure gallery (gallery/figures.html): registers the figure elements and
// gives the two figures whose data comes from the attention core their data:
// 500 Dirichlet mixtures of the hull's four points and a 256 × 256 heatmap.
import '../cells/figures/attn-bars.js';
import '../cells/figures/attn-heatmap.js';
import '../cells/figures/attn-matrix.js';
import '../cells/figures/attn-scatter-hull.js';
import '../cells/figures/attn-shape-diagram.js';
import { getEngine } from '../runtime.js';

const rows = ({ data, shape }) =>
  Array.from({ length: shape[0] }, (_, i) => Array.from(data.subarray(i * shape[1], (i + 1) * shape[1])));

try {
  const attn = await getEngine();

  const hull = document.getElementById('hull-figure');
  const points = hull.points;
  const weights = attn.dirichlet([1, 1, 1, 1], 500, 42);
  hull.mixtures = rows(attn.convexCombination(weights, points)).map((p) => p.map((v) => Number(v.toFixed(4))));

  const [q, k] = [attn.randn([256, 16], 7), attn.randn([256, 16], 8)];
  const { weights: map } = attn.attention(q, k, k, { mask: 'causal', returnWeights: true });
  document.getElementById('large-heatmap-figure').values = { data: map.data, shape: map.shape.slice(-2) };
} catch (error) {
  console.warn(`figure gallery: ${error.message}`);
}
