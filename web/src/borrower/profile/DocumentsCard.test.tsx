import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, memberAnswer, routeFetch } from '../../testing/http';
import { renderApp } from '../../testing/renderApp';
import { useSession } from '../stores/session';
import { useToasts } from '../../shared/toast/toastStore';

const PNG_HEADER = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];

function signedInWithoutDocuments() {
  localStorage.setItem('token', 'jwt-abc');
  useSession.setState({ user: memberAnswer({ personalInfoComplete: true }), loading: false });
}

describe('upload documents (issue 22, item 18)', () => {
  beforeEach(() => {
    // The previews are object URLs; the test DOM's files are not the runtime's Blobs.
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:preview');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
  });

  it('does not call a file that is no image "Ready to upload", even named .png', async () => {
    signedInWithoutDocuments();
    routeFetch({});
    renderApp('/profile');
    const notAnImage = new File(['%PDF-1.7 a payslip'], 'id-front.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('ID Front'), { target: { files: [notAnImage] } });
    expect(await screen.findByText('This file is not a JPEG, PNG or WebP image')).toBeTruthy();
    expect(screen.queryByText('Ready to upload')).toBeNull();

    const image = new File([new Uint8Array(PNG_HEADER)], 'id-back.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('ID Back'), { target: { files: [image] } });
    expect(await screen.findByText('Ready to upload')).toBeTruthy();
  });

  it('names the file the server refused when Submit fails', async () => {
    signedInWithoutDocuments();
    routeFetch({ 'POST /api/upload': () => jsonResponse({ message: 'Only JPEG, PNG or WebP images are accepted', code: 'UNSUPPORTED_FILE' }, { status: 400 }) });
    renderApp('/profile');
    fireEvent.change(screen.getByLabelText('Selfie'), { target: { files: [new File([new Uint8Array(PNG_HEADER)], 'selfie.png', { type: 'image/png' })] } });
    await screen.findByText('Ready to upload');
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(useToasts.getState().toasts[0]).toMatchObject({ title: 'Upload failed: Selfie', description: 'Only JPEG, PNG or WebP images are accepted' }));
    // Beside the file itself, not only in the toast.
    expect(document.getElementById('document-selfie-error')?.textContent).toBe('Only JPEG, PNG or WebP images are accepted');
  });
});
