// The HTML report in a real browser: headless Chromium (Debian's package, driven by playwright-core) opens the page
// rendered from recorded results, and every chart must be drawn with the points its data gives, inside its SVG,
// with no console error. It screenshots the first roofline; KERNELBENCH_UPDATE_SCREENSHOT=1 saves it as the
// docs/images/roofline.png of docs/charts.md, and KERNELBENCH_SCREENSHOT_RESULTS (results files, comma-separated) draws
// real results instead of the fixtures (scripts/readme-images.sh sets both).
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from '../../src/spec/paths.js'
import { writeChartOutputs } from '../../src/report/chart-files.js'
import { allCharts, reportCharts } from '../../src/report/charts/index.js'
import { readResultsFiles } from '../../src/report/read-results.js'
import { fixtureResultsFile } from '../fixtures/results/results-file.js'
import { makeScratch, removeScratch } from '../helpers/scratch.js'

const CHROMIUM = '/usr/bin/chromium'
const SCREENSHOT = path.join(PACKAGE_ROOT, 'docs/images/roofline.png')
const resultsFiles = process.env.KERNELBENCH_SCREENSHOT_RESULTS?.split(',').filter(Boolean) ?? []
const sources = resultsFiles.length > 0 ? readResultsFiles(resultsFiles.map((f) => path.resolve(f))) : [{ name: 'results.json', file: fixtureResultsFile() }]

interface DrawnChart {
  id: string
  declared: number
  drawn: number
  /** Points whose box lies outside their SVG, or has no size. */
  misplaced: number
}

describe.skipIf(!fs.existsSync(CHROMIUM))(`the HTML report in Chromium${fs.existsSync(CHROMIUM) ? '' : ` (skipped: no ${CHROMIUM}; apt-get install chromium)`}`, () => {
  let browser: Browser
  let dir: string
  let page: string
  beforeAll(async () => {
    dir = makeScratch('kb-browser-')
    page = path.join(dir, 'kernelbench.html')
    writeChartOutputs(sources, { html: page })
    browser = await chromium.launch({ executablePath: CHROMIUM })
  })
  afterAll(async () => {
    await browser?.close()
    removeScratch(dir)
  })

  it('draws every chart with the expected number of points, inside the chart, and no console error', async () => {
    const tab = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
    const errors: string[] = []
    tab.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())))
    tab.on('pageerror', (error) => errors.push(error.message))
    await tab.goto(pathToFileURL(page).href)
    const drawn = await tab.$$eval('figure.chart', (figures) =>
      figures.map((figure) => {
        const svg = figure.querySelector('svg')!.getBoundingClientRect()
        const points = [...figure.querySelectorAll('g.points > *')].map((p) => p.getBoundingClientRect())
        const inside = (r: DOMRect) => r.width > 0 && r.left >= svg.left - 1 && r.right <= svg.right + 1 && r.top >= svg.top - 1 && r.bottom <= svg.bottom + 1
        return { id: figure.id, declared: Number(figure.getAttribute('data-points')), drawn: points.length, misplaced: points.filter((r) => !inside(r)).length }
      }),
    )
    const expected = allCharts(reportCharts(sources)).map((c): DrawnChart => ({ id: c.id, declared: c.points, drawn: c.points, misplaced: 0 }))
    expect(drawn).toEqual(expected)
    expect(drawn.filter((c) => c.id.startsWith('roofline-')).length).toBeGreaterThan(0)
    expect(errors).toEqual([])
  })

  it('screenshots the first roofline (saved for docs/charts.md with KERNELBENCH_UPDATE_SCREENSHOT=1)', async () => {
    const tab = await browser.newPage({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 2 })
    await tab.goto(pathToFileURL(page).href)
    const target = process.env.KERNELBENCH_UPDATE_SCREENSHOT === '1' ? SCREENSHOT : path.join(dir, 'roofline.png')
    const png = await tab.locator('figure.chart[id^="roofline-"]').first().screenshot({ path: target })
    // A PNG signature, and more than a blank image's few hundred bytes.
    expect(png.subarray(1, 4).toString()).toBe('PNG')
    expect(png.length).toBeGreaterThan(20_000)
  })
})
