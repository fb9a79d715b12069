package dev.keyright.seats.admins.boundary;

import dev.keyright.seats.throttling.boundary.PasswordGuessingGuard;
import jakarta.ejb.EJB;
import jakarta.inject.Inject;
import jakarta.security.auth.message.config.AuthConfigFactory;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;

/** Registers {@link AdminAuthentication} with the container for this application (Jakarta Authentication 3.0). */
@WebListener
public class AdminAuthenticationInstaller implements ServletContextListener {

    @Inject
    PasswordGuessingGuard guessing;
    @EJB
    AdminCredentials credentials;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        AuthConfigFactory.getFactory().registerServerAuthModule(
                new AdminAuthentication(guessing, credentials::verify), event.getServletContext());
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        AuthConfigFactory.getFactory().removeServerAuthModule(event.getServletContext());
    }
}
