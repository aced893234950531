import { lazy, Suspense, useState, type ComponentProps } from 'react';
import type { ApplyLoanDialog as EagerApplyLoanDialog } from './ApplyLoanDialog';

// Issue 20: the loan application dialog (its form, terms and Truth-in-Lending preview) is a chunk
// of its own, so the dashboard's first load does not carry it. It is fetched when the browser is
// idle after the dashboard is drawn (prefetchApplyLoanDialog), or at the latest when it opens.
type Module = typeof import('./ApplyLoanDialog');
type Loaded = { default: Module['ApplyLoanDialog'] };
let loaded: Module | undefined;
let pending: Promise<Module> | undefined;
const load = () => (pending ??= import('./ApplyLoanDialog').then((module) => (loaded = module)));
// Once the chunk is in, React gets a thenable that resolves at once: the dialog opens in the same render.
const LazyApplyLoanDialog = lazy(() => {
  const module = loaded;
  if (module) return { then: (resolve: (value: Loaded) => void) => resolve({ default: module.ApplyLoanDialog }) } as unknown as Promise<Loaded>;
  return load().then((fetched) => ({ default: fetched.ApplyLoanDialog }));
});

/** Fetches the dialog's chunk (once); resolves when it is in. */
export function prefetchApplyLoanDialog(): Promise<void> {
  return load().then(() => undefined);
}

/** The loan application dialog, mounted from the first time it opens (until then there is nothing to draw). */
export function ApplyLoanDialog(props: ComponentProps<typeof EagerApplyLoanDialog>) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <LazyApplyLoanDialog {...props} />
    </Suspense>
  );
}
