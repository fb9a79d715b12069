package dev.keyright.seats.leases.control;

import dev.keyright.seats.leases.entity.HolderLimitReachedException;
import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.SeatRefusal;
import dev.keyright.seats.licenses.entity.License;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Optional;

/** {@code maxPerHost}: no more live seats for one reported {@code metadata.host} (FlexNet's MAX HOST). */
@ApplicationScoped
public class HostLimit implements SeatPolicy {

    @Inject
    LiveLeases liveLeases;

    @Override
    public Optional<SeatRefusal> refusal(License license, Holder holder, Instant now) {
        Optional<Integer> limit = license.sharing().maxPerHost();
        if (limit.isEmpty() || holder.host() == null) {
            return Optional.empty();
        }
        long held = liveLeases.countOfHost(license, holder.host(), now);
        return held >= limit.get()
                ? Optional.of(HolderLimitReachedException.host(holder.host(), held, limit.get()))
                : Optional.empty();
    }
}
