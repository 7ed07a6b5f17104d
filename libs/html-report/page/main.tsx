import { render } from 'preact';
import { CalibrationApp } from './calibration/calibration-app.js';
import { readPageData } from './data.js';
import { RunApp } from './run/run-app.js';

/**
 * The report page: reads the data the file carries and draws the run or the calibration report.
 * When the first screen is drawn, `data-ready` is set on <html> and a `parley-first-screen`
 * performance mark is made (the browser tests and the benchmark wait for them).
 */
const root = document.getElementById('app')!;

readPageData()
  .then((data) => {
    root.textContent = '';
    render(data.kind === 'run' ? <RunApp data={data} /> : <CalibrationApp data={data} />, root);
    requestAnimationFrame(() => {
      performance.mark('parley-first-screen');
      document.documentElement.dataset['ready'] = 'true';
    });
  })
  .catch((error: unknown) => {
    root.textContent = '';
    const message = document.createElement('p');
    message.setAttribute('role', 'alert');
    message.textContent = `This report cannot be shown: ${error instanceof Error ? error.message : String(error)}`;
    root.append(message);
    document.documentElement.dataset['ready'] = 'error';
  });
