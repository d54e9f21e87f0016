// App entry: registers the lesson elements. The elements load the engine themselves.
import './components/attn-softmax-temperature.js';
