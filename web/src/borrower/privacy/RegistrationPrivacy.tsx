import { useEffect, type Ref } from 'react';
import { PrivacyNoticeText, usePrivacyNotice } from './PrivacyNoticeText';

/**
 * The registration form's privacy notice and consent box (RA 10173 sec. 12): the notice's version
 * goes up to the form, which sends it with the registration once the box is ticked.
 */
export function RegistrationPrivacy(props: {
  accepted: boolean;
  error: string | undefined;
  checkboxRef: Ref<HTMLInputElement>;
  onAcceptedChange: (accepted: boolean) => void;
  onNoticeVersion: (version: string) => void;
}) {
  const { notice, failed } = usePrivacyNotice();
  const { onNoticeVersion } = props;
  useEffect(() => {
    if (notice) onNoticeVersion(notice.version);
  }, [notice, onNoticeVersion]);
  return (
    <div>
      <h2 className="field__label">Privacy notice</h2>
      <PrivacyNoticeText notice={notice} failed={failed} />
      <label className="privacy-consent">
        <input
          ref={props.checkboxRef}
          type="checkbox"
          name="privacyConsent"
          checked={props.accepted}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? 'privacy-consent-error' : undefined}
          onChange={(event) => props.onAcceptedChange(event.target.checked)}
        />
        <span>I have read the privacy notice and consent to the processing of my personal data as it describes.</span>
      </label>
      {props.error && (
        <p id="privacy-consent-error" className="field__error" role="alert">
          {props.error}
        </p>
      )}
    </div>
  );
}
