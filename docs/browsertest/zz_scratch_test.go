package browsertest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestZZScratch(t *testing.T) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath("/usr/bin/chromium"), chromedp.UserDataDir(t.TempDir()), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1400, 1000))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	actx, ac := chromedp.NewExecAllocator(ctx, opts...)
	defer ac()
	b, bc := chromedp.NewContext(actx)
	defer bc()
	if err := chromedp.Do(b, chromedp.Navigate(os.Getenv("U"))); err != nil {
		t.Fatal(err)
	}
	steps := strings.Split(os.Getenv("STEPS"), ";;")
	for _, js := range steps {
		if js == "" {
			continue
		}
		time.Sleep(3 * time.Second)
		v, err := chromedp.Run(b, chromedp.Evaluate[any](js, chromedp.EvalAwaitPromise))
		fmt.Printf("STEP %q -> %v %v\n", js[:min(len(js), 80)], v, err)
	}
	time.Sleep(4 * time.Second)
	loc, _ := chromedp.Run(b, chromedp.Location())
	txt, _ := chromedp.Run(b, chromedp.Evaluate[string](`document.body.innerText`))
	ctl, _ := chromedp.Run(b, chromedp.Evaluate[string](`[...document.querySelectorAll('button,input,select,textarea,a[href]')].map(e => e.tagName+"|"+(e.getAttribute('aria-label')||'')+"|"+(e.placeholder||'')+"|"+(e.name||'')+"|"+e.innerText.slice(0,40).replace(/\n/g,' ')+"|"+(e.value||'').slice(0,60)).join("\n")`))
	fmt.Println("LOC", loc)
	fmt.Println("TEXT", txt)
	fmt.Println("CONTROLS", ctl)
	buf, _ := chromedp.Run(b, chromedp.CaptureScreenshot())
	os.WriteFile("/tmp/t32insp/shot.png", buf, 0o644)
}
