import type { ReactNode } from 'react';
import { Card } from '@blueprintjs/core';
import { LanguageSwitch } from './language-switch';

/** The card of the public account pages (login, forgot password, set password): brand, title, content, language. */
export function AccountCard({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <main className="wb-login">
      <Card elevation={2} className="wb-login-card">
        <div className="wb-login-brand">
          <img src="/logo.svg" alt="" width={40} height={40} />
          <h1>{title}</h1>
        </div>
        {children}
        <div className="wb-login-lang">
          <LanguageSwitch />
        </div>
      </Card>
    </main>
  );
}
