// A spinner with the elapsed time while we wait for the model: on a terminal only, on
// stderr, so pipes and logs never see control characters.
const FRAMES = ['|', '/', '-', '\\'];

export function startSpinner(label: string): () => void {
  if (!process.stderr.isTTY) return () => {};
  const started = Date.now();
  let frame = 0;
  const draw = () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stderr.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label} ${seconds}s `);
  };
  draw();
  const timer = setInterval(draw, 100);
  return () => {
    clearInterval(timer);
    process.stderr.write('\r\x1b[K');
  };
}
