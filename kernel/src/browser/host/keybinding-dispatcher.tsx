import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useService } from '../react-context';
import { Registries } from './workbench';

/**
 * Runs key bindings (spec 000 §2 "Keyboard shortcuts"): only with no modifier held, no input
 * focused and no dialog or overlay open; a binding with `when` applies on routes with that prefix.
 */
export function KeybindingDispatcher() {
  const registries = useService(Registries);
  const { pathname } = useLocation();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.shiftKey) return;
      const el = document.activeElement as HTMLElement | null;
      if (el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName))) return;
      if (document.querySelector('.bp6-overlay-open, [role="dialog"]')) return;
      const binding = registries.keybindings.all().find((b) => b.key === e.key && (!b.when || pathname.startsWith(b.when)));
      if (!binding) return;
      e.preventDefault();
      registries.commands.execute(binding.command);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [registries, pathname]);
  return null;
}
