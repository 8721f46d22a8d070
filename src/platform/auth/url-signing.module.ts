import { Global, Module } from '@nestjs/common';
import { UrlSigner, loadUrlSigningSecret } from 'src/platform/auth/url-signer';
import { AppConfig } from 'src/platform/config/app-config';

/** One signer for the process: the guard verifies with it, contexts sign with it. */
@Global()
@Module({
  providers: [
    {
      provide: UrlSigner,
      useFactory: async (config: AppConfig) => new UrlSigner(await loadUrlSigningSecret(config)),
      inject: [AppConfig],
    },
  ],
  exports: [UrlSigner],
})
export class UrlSigningModule {}
