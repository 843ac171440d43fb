import './viewer.css';
import { configureCesium, createRoot, StrictMode } from '@werkbank/sdk/globe';
import { ViewerApp } from './viewer-app';

/** The public viewer's start (the manifest's `viewer`): renders it into `root`. */
export default function startViewer(root: HTMLElement): void {
  configureCesium();
  createRoot(root).render(
    <StrictMode>
      <ViewerApp />
    </StrictMode>,
  );
}
