// A spinner with the elapsed time while we wait for the model: on a terminal only, on
// stderr, so pipes and logs never see control characters.
const FRAMES = ['|', '/', '-', '\\'];

export interface Spinner {
  /** Erases the spinner's line so a message can be printed; the next tick redraws it. */
  clear: () => void;
  stop: () => void;
}

export function startSpinner(label: string): Spinner {
  if (!process.stderr.isTTY) return { clear: () => {}, stop: () => {} };
  const started = Date.now();
  let frame = 0;
  const draw = () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stderr.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label} ${seconds}s `);
  };
  draw();
  const timer = setInterval(draw, 100);
  const clear = () => void process.stderr.write('\r\x1b[K');
  return {
    clear,
    stop: () => {
      clearInterval(timer);
      clear();
    },
  };
}
