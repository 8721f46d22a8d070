import { Global, Module } from '@nestjs/common';
import { UrlSigner, loadUrlSigningSecret } from 'src/platform/auth/url-signer';
import { PlatformConfig } from 'src/platform/config/platform.config';

/** One signer for the process: the guard verifies with it, contexts sign with it. */
@Global()
@Module({
  providers: [
    {
      provide: UrlSigner,
      useFactory: async (config: PlatformConfig) => new UrlSigner(await loadUrlSigningSecret(config)),
      inject: [PlatformConfig],
    },
  ],
  exports: [UrlSigner],
})
export class UrlSigningModule {}
