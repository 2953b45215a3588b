import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setThemeMode, useThemeMode } from './theme';

/** A system colour scheme the test switches, as the operating system would. */
function systemScheme(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return dark;
    },
    addEventListener: (_: string, l: () => void) => listeners.add(l),
    removeEventListener: (_: string, l: () => void) => listeners.delete(l),
  };
  window.matchMedia = (() => query) as unknown as typeof window.matchMedia;
  return {
    set(next: boolean) {
      dark = next;
      listeners.forEach((l) => l());
    },
  };
}

function Mode() {
  return <span data-testid="mode">{useThemeMode()}</span>;
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('theme mode', () => {
  it('follows the system’s scheme while nothing was chosen, also when it changes', () => {
    const system = systemScheme(false);
    render(<Mode />);
    expect(screen.getByTestId('mode').textContent).toBe('light');
    act(() => system.set(true));
    expect(screen.getByTestId('mode').textContent).toBe('dark');
  });

  it('keeps a chosen theme whatever the system does', () => {
    const system = systemScheme(false);
    render(<Mode />);
    act(() => setThemeMode('light'));
    act(() => system.set(true));
    expect(screen.getByTestId('mode').textContent).toBe('light');
  });
});
