import { LinkedAccounts } from './LinkedAccounts';
import { SessionsCard } from './SessionsCard';
import { TotpCard } from './TotpCard';

/** The profile's account security: two-step sign-in, signed-in sessions, linked accounts. */
export function AccountSections() {
  return (
    <>
      <TotpCard />
      <SessionsCard />
      <LinkedAccounts />
    </>
  );
}
