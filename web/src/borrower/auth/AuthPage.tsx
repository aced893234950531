import { lazy, Suspense, useRef, useState, type FormEvent } from 'react';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { ApiError, serverFieldErrors } from '../../shared/api';
import { fullPageRedirect } from '../../shared/fullPageRedirect';
import { toast } from '../../shared/toast/toastStore';
import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { Dialog } from '../components/Dialog';
import { FormField } from '../components/FormField';
import { useSession } from '../stores/session';

// The privacy notice (RA 10173) is fetched with its own small chunk when the registration form opens.
const RegistrationPrivacy = lazy(() => import('../privacy/RegistrationPrivacy').then((module) => ({ default: module.RegistrationPrivacy })));
import { EMPTY_AUTH_FORM, FIELDS_OF, onlyFormFields, validateAuthForm, type AuthField, type AuthFieldErrors, type AuthFormValues, type AuthMode } from './authValidation';

export const SIGNED_IN_HOME = '/loan-app';
/** Spec §9: the pause after a successful sign-in before the page reloads signed in. */
export const LOGIN_REDIRECT_DELAY_MS = 500;

function isAlreadyRegistered(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const flagged = typeof error.data === 'object' && error.data !== null && 'alreadyRegistered' in error.data && error.data.alreadyRegistered === true;
  return error.status === 409 || flagged || error.message.includes('already have an account');
}

/** Customer sign-in and registration (spec §2); `?register=true` opens registration. */
export function AuthPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const mode: AuthMode = searchParams.get('register') === 'true' ? 'register' : 'signin';
  const login = useSession((state) => state.login);
  const register = useSession((state) => state.register);
  const [forgotOpen, setForgotOpen] = useState(false);
  // Only a member who arrives signed in is sent on; one who signs in here leaves through the full-page redirect.
  const [signedInOnArrival] = useState(() => useSession.getState().user !== null);
  const [values, setValues] = useState<AuthFormValues>(EMPTY_AUTH_FORM);
  const [errors, setErrors] = useState<AuthFieldErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [alreadyRegisteredOpen, setAlreadyRegisteredOpen] = useState(false);
  // RA 10173 sec. 12: registration shows the privacy notice and records the person's consent to it.
  const [noticeVersion, setNoticeVersion] = useState<string | null>(null);
  const [privacyAccepted, setPrivacyAccepted] = useState(false);
  const [privacyError, setPrivacyError] = useState<string | undefined>();
  const privacyCheckbox = useRef<HTMLInputElement | null>(null);
  // Drawn in place of a member page (SignedInOnly): signing in goes back to that page, not home.
  const location = useLocation();
  const destination = location.pathname === '/app-login' ? SIGNED_IN_HOME : `${location.pathname}${location.search}`;
  const inputs = useRef<Partial<Record<AuthField, HTMLInputElement | null>>>({});
  useDocumentTitle(mode === 'register' ? 'Register' : 'Sign in');

  if (signedInOnArrival) return <Navigate to={SIGNED_IN_HOME} replace />;

  function switchMode(next: AuthMode) {
    setErrors({});
    setSearchParams(
      (params) => {
        const updated = new URLSearchParams(params);
        if (next === 'register') updated.set('register', 'true');
        else updated.delete('register');
        return updated;
      },
      { replace: true },
    );
  }

  function change(field: AuthField, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  }

  function showErrors(found: AuthFieldErrors) {
    setErrors(found);
    const firstInvalid = FIELDS_OF[mode].find((field) => found[field]);
    if (firstInvalid) inputs.current[firstInvalid]?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (submitting) return;
    const checked = validateAuthForm(mode, values);
    if (!checked.ok) {
      showErrors(checked.errors);
      return;
    }
    const { submission } = checked;
    if (submission.mode === 'register' && (!privacyAccepted || !noticeVersion)) {
      setPrivacyError('Please read the privacy notice and tick the box to accept it.');
      privacyCheckbox.current?.focus();
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      if (submission.mode === 'register') {
        await register({ ...submission.registration, privacyNoticeVersion: noticeVersion! });
        toast({ title: 'Registration successful', description: 'Your account has been created!' });
        fullPageRedirect(destination);
      } else {
        await login(submission.credentials);
        toast({ title: 'Login successful', description: 'Welcome back!' });
        setTimeout(() => fullPageRedirect(destination), LOGIN_REDIRECT_DELAY_MS);
      }
    } catch (error) {
      setSubmitting(false);
      failed(error);
    }
  }

  function failed(error: unknown) {
    showErrors(onlyFormFields(serverFieldErrors(error)));
    // The suspended-account flow has already told the member and moved them on.
    if (error instanceof ApiError && error.accountSuspended) return;
    if (mode === 'register' && isAlreadyRegistered(error)) {
      setAlreadyRegisteredOpen(true);
      return;
    }
    const serverMessage = error instanceof Error ? error.message : '';
    if (mode === 'register') {
      toast({ variant: 'destructive', title: 'Registration failed', description: serverMessage || 'Please try again' });
    } else {
      toast({ variant: 'destructive', title: 'Login failed', description: serverMessage || 'Please check your credentials' });
    }
  }

  function goToLogin() {
    setAlreadyRegisteredOpen(false);
    setValues(EMPTY_AUTH_FORM);
    switchMode('signin');
  }

  const registering = mode === 'register';
  const fieldProps = (field: AuthField) => ({
    value: values[field],
    onValueChange: (value: string) => change(field, value),
    error: errors[field],
    inputRef: (input: HTMLInputElement | null) => {
      inputs.current[field] = input;
    },
  });

  return (
    <div className="auth">
      <div className="auth__card card">
        <h1 className="auth__title">{registering ? 'Create your account' : 'Welcome back'}</h1>
        <p className="auth__subtitle">{registering ? 'Register with your mobile number to apply for a loan.' : 'Sign in with your mobile number and password.'}</p>

        <div className="segmented" role="group" aria-label="Choose sign in or register">
          <button type="button" className="segmented__option" aria-pressed={!registering} onClick={() => switchMode('signin')}>
            Sign in
          </button>
          <button type="button" className="segmented__option" aria-pressed={registering} onClick={() => switchMode('register')}>
            Register
          </button>
        </div>

        <form className="auth__form" noValidate onSubmit={(event) => void submit(event)} aria-label={registering ? 'Register' : 'Sign in'}>
          {registering && <FormField label="Full name" name="fullName" autoComplete="name" {...fieldProps('fullName')} />}
          <FormField label="Phone number" name="phone" type="tel" inputMode="tel" autoComplete="tel" placeholder="09171234567" {...fieldProps('phone')} />
          {registering && <FormField label="Email" hint="(optional)" name="email" type="email" autoComplete="email" {...fieldProps('email')} />}
          <FormField label="Password" name="password" type="password" autoComplete={registering ? 'new-password' : 'current-password'} revealable {...fieldProps('password')} />
          {registering && (
            <Suspense fallback={<p className="muted">Loading the privacy notice…</p>}>
              <RegistrationPrivacy
                accepted={privacyAccepted}
                error={privacyError}
                checkboxRef={privacyCheckbox}
                onNoticeVersion={setNoticeVersion}
                onAcceptedChange={(accepted) => {
                  setPrivacyAccepted(accepted);
                  setPrivacyError(undefined);
                }}
              />
            </Suspense>
          )}
          <button type="submit" className="button button--primary button--block" disabled={submitting} aria-busy={submitting || undefined}>
            {submitting ? 'Please wait...' : 'Proceed'}
          </button>
          {!registering && (
            <button type="button" className="link-button" onClick={() => setForgotOpen(true)}>
              Forgot password?
            </button>
          )}
        </form>
        <ForgotPasswordDialog key={forgotOpen ? 'open' : 'closed'} open={forgotOpen} initialPhone={values.phone} onClose={() => setForgotOpen(false)} />
      </div>

      <Dialog
        open={alreadyRegisteredOpen}
        title="Account Already Exists"
        description="You already have an account, please login"
        onClose={() => setAlreadyRegisteredOpen(false)}
        actions={
          <>
            <button type="button" className="button button--primary" onClick={goToLogin}>
              Go to login
            </button>
            <button type="button" className="button button--secondary" onClick={() => setAlreadyRegisteredOpen(false)}>
              Cancel
            </button>
          </>
        }
      />
    </div>
  );
}
