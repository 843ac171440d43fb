import { token } from '../common/index';

export const Navigator = token<Navigator>('Navigator');
/**
 * Client navigation for code outside React (a menu entry's `run`, a command): the workbench's
 * router once it is mounted; before that, a full page load.
 */
export interface Navigator {
  navigate(path: string, opts?: { replace?: boolean }): void;
}

export class RouterNavigator implements Navigator {
  private route?: (path: string, opts?: { replace?: boolean }) => void;

  /** Called by the workbench host with the router's navigate; returns the detach. */
  attach(route: (path: string, opts?: { replace?: boolean }) => void): () => void {
    this.route = route;
    return () => {
      if (this.route === route) this.route = undefined;
    };
  }

  navigate(path: string, opts?: { replace?: boolean }): void {
    if (this.route) this.route(path, opts);
    else if (opts?.replace) window.location.replace(path);
    else window.location.assign(path);
  }
}
