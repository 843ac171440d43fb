import { Component, type ReactNode } from 'react';

interface Props {
  /** Shown instead of the map when it failed (WebGL missing, a chunk that did not load, ...). */
  fallback: ReactNode;
  children: ReactNode;
}

/** Keeps a map that fails to start from taking its screen down with it: the screen stays usable. */
export class MapErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.warn('The map could not start:', error);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
