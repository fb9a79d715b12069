package dev.keyright.seats.leases.control;

import dev.keyright.seats.leases.entity.HolderLimitReachedException;
import dev.keyright.seats.leases.entity.Holder;
import dev.keyright.seats.leases.entity.SeatRefusal;
import dev.keyright.seats.licenses.entity.License;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code maxPerUser}: no more live seats for one reported {@code metadata.user} (FlexNet's MAX USER). A holder
 * that reported no user is not capped: the name is the client's word, and only names are counted.
 */
@ApplicationScoped
public class UserLimit implements SeatPolicy {

    @Inject
    LiveLeases liveLeases;

    @Override
    public Optional<SeatRefusal> refusal(License license, Holder holder, Instant now) {
        Optional<Integer> limit = license.sharing().maxPerUser();
        if (limit.isEmpty() || holder.user() == null) {
            return Optional.empty();
        }
        long held = liveLeases.countOfUser(license, holder.user(), now);
        return held >= limit.get()
                ? Optional.of(HolderLimitReachedException.user(holder.user(), held, limit.get()))
                : Optional.empty();
    }
}
