package dev.keyright.seats.secrets;

import dev.keyright.seats.configuration.KeyrightConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;

/** The one server secret of this node, loaded (or created) on first use. */
@ApplicationScoped
public class Secrets {

    @Inject
    KeyrightConfig config;

    private volatile ServerSecret secret;

    @Produces
    public ServerSecret secret() {
        ServerSecret loaded = secret;
        if (loaded == null) {
            synchronized (this) {
                if (secret == null) {
                    secret = ServerSecret.load(config);
                }
                loaded = secret;
            }
        }
        return loaded;
    }
}
