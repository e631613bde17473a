/** Stand-in secrets of a server's environment, each value unique, for tests that an external program is given none of them. */
export const SERVER_SECRETS: Readonly<Record<string, string>> = {
  DATABASE_URL: 'postgres://quire:db-password-1@db/quire',
  DATABASE_URL_FILE: '/run/secrets/db-url-2',
  AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEKEY3',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-4',
  AWS_SESSION_TOKEN: 'aws-session-5',
  QUIRE_BOOTSTRAP_KEY: 'bootstrap-key-6',
  QUIRE_SECRET_KEY: 'secret-key-7',
  QUIRE_SECRET_KEY_OLD: 'secret-key-old-8',
  QUIRE_SECRET_KEY_FILE: '/run/secrets/quire-key-9',
  QUIRE_STORAGE_URL: 's3://bucket-10?region=eu-west-1',
  SMTP_PASSWORD: 'smtp-11',
  GITHUB_TOKEN: 'ghp_token12',
};
