import type { AdminAnswer } from '@honeylend/contracts';
import { Alert, Button, Card, ConfigProvider, Input, Typography } from 'antd';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { apiRequest } from '../../shared/api';
import { storeToken } from '../../shared/authToken';
import { toast } from '../../shared/toast/toastStore';
import { useDocumentTitle } from '../../shared/useDocumentTitle';
import { reasonOf } from '../../console/adminApi';
import { adminTheme } from '../../console/adminTheme';
import '../../console/console.css';

interface AdminLoginAnswer {
  success: true;
  token: string;
  user: AdminAnswer | null;
}

/** Spec §2 /admin-login: both fields required by the browser; failure in a red alert and an Error toast. */
export default function AdminLoginPage() {
  useDocumentTitle('Admin login');
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await apiRequest<AdminLoginAnswer>('/api/auth/admin-login', { method: 'POST', body: { username, password } });
      storeToken(answer.token);
      toast({ title: 'Success', description: 'Admin login successful' });
      // Auditors work in their own workspace (issue 16); everyone else in the console.
      void navigate(answer.user?.role === 'auditor' ? '/audit' : '/management');
    } catch (failure) {
      const message = reasonOf(failure) || 'Login failed';
      setError(message);
      toast({ variant: 'destructive', title: 'Error', description: message });
    } finally {
      setBusy(false);
    }
  }

  return (
    <ConfigProvider theme={adminTheme}>
      <main className="admin-login">
        <Card className="admin-login__card">
          {/* The page's level-one heading (issue 20), at the size the card had. */}
          <Typography.Title level={1} style={{ fontSize: 30 }}>
            Admin Login
          </Typography.Title>
          <Typography.Paragraph type="secondary">Sign in to the management panel.</Typography.Paragraph>
          <form onSubmit={(event) => void signIn(event)} className="admin-login__form">
            {error && <Alert type="error" showIcon title={error} />}
            <label className="admin-field">
              <span>Username</span>
              <Input name="username" autoComplete="username" required value={username} onChange={(event) => setUsername(event.target.value)} />
            </label>
            <label className="admin-field">
              <span>Password</span>
              <Input.Password name="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
            </label>
            <Button type="primary" htmlType="submit" block loading={busy}>
              {busy ? 'Signing in...' : 'Sign in'}
            </Button>
          </form>
          <Typography.Paragraph className="admin-login__customer">
            Not staff? <Link to="/app-login">Go to customer login</Link>
          </Typography.Paragraph>
        </Card>
      </main>
    </ConfigProvider>
  );
}
