// App entry: registers every attn-* element. The elements load the engine themselves.
import './components/index.js';
