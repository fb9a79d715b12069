import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.management.MBeanAttributeInfo;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Checks that a Keyright Seats server answers over remote JMX, the way a monitoring tool would:
 * <pre>
 *   java server-config/JmxProbe.java HOST:PORT [USER PASSWORD]
 * </pre>
 * Connects to {@code service:jmx:rmi:///jndi/rmi://HOST:PORT/jmxrmi}, reads {@code java.lang:type=Runtime}
 * through an MXBean proxy, then every attribute of every {@code dev.keyright:*} MBean, one MBean per line:
 * <pre>
 *   dev.keyright:type=SeatService Licenses=1 Acquisitions=3 ... DatabaseReachable=true
 *   dev.keyright:type=SeatPool,license=lic_... Product=acme SeatsInUse=1 MaxSeats=2 ...
 * </pre>
 * Exits 0 on success, 1 on failure (no connection, or an attribute that cannot be read).
 * No dependencies: run it as a single-file program with the JDK (11+).
 */
public class JmxProbe {

    public static void main(String[] args) throws Exception {
        if (args.length != 1 && args.length != 3) {
            System.err.println("usage: java JmxProbe.java HOST:PORT [USER PASSWORD]");
            System.exit(2);
        }
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + args[0] + "/jmxrmi");
        Map<String, Object> env = new HashMap<>();
        if (args.length == 3) {
            env.put(JMXConnector.CREDENTIALS, new String[] {args[1], args[2]});
        }
        try (JMXConnector connector = JMXConnectorFactory.connect(url, env)) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            RuntimeMXBean runtime = JMX.newMXBeanProxy(server,
                    new ObjectName(ManagementFactory.RUNTIME_MXBEAN_NAME), RuntimeMXBean.class);
            System.out.println("JMX OK " + url);
            System.out.println("  java.lang:type=Runtime VmName=" + runtime.getVmName()
                    + " VmVersion=" + runtime.getVmVersion() + " Uptime=" + runtime.getUptime() + "ms Pid=" + runtime.getPid());
            Set<ObjectName> keyright = new TreeSet<>(server.queryNames(new ObjectName("dev.keyright:*"), null));
            System.out.println("  dev.keyright MBeans: " + keyright.size());
            for (ObjectName name : keyright) {
                StringBuilder line = new StringBuilder("  ").append(name);
                for (MBeanAttributeInfo attribute : server.getMBeanInfo(name).getAttributes()) {
                    line.append(' ').append(attribute.getName()).append('=').append(server.getAttribute(name, attribute.getName()));
                }
                System.out.println(line);
            }
        } catch (Exception e) {
            System.out.println("JMX FAILED " + url + ": " + e);
            System.exit(1);
        }
    }
}
