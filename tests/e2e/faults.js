// The fault switchboard of the browser tests (fault-isolation.test.js, authoring.test.js): an
// init script (page.addInitScript(installFaults, faults)) that wraps each attn-* class's
// renderFigure(), updated() and engine() as it is defined; the wrappers throw while
// window.__faults names "<tag>:<method>" ("<tag>:engine-call": every call of the engine that
// cell was given). The app has no test hook.

/** Runs in the page before its scripts: the fault switchboard. `faults` is the initial set. */
export function installFaults(faults) {
  window.__faults = { ...faults };
  const fault = (el, what) => window.__faults[`${el.localName}:${what}`];
  const define = CustomElementRegistry.prototype.define;
  CustomElementRegistry.prototype.define = function (name, cls, options) {
    if (name.startsWith('attn-')) {
      const proto = cls.prototype;
      for (const method of ['renderFigure', 'updated']) {
        const original = proto[method];
        if (typeof original !== 'function') continue;
        proto[method] = function (...args) {
          const message = fault(this, method);
          if (message) throw new Error(message);
          return original.apply(this, args);
        };
      }
      const engine = proto.engine;
      proto.engine = function () {
        const message = fault(this, 'engine');
        if (message) return Promise.reject(new Error(message));
        // The engine as this cell sees it: each method call throws while "<tag>:engine-call" is set.
        return engine.call(this).then(
          (real) =>
            new Proxy(real, {
              get: (target, key) => {
                const value = target[key];
                if (typeof value !== 'function') return value;
                return (...args) => {
                  const callFault = fault(this, 'engine-call');
                  if (callFault) throw new Error(callFault);
                  return value.apply(target, args);
                };
              },
            }),
        );
      };
    }
    return define.call(this, name, cls, options);
  };
}
